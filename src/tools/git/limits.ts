/**
 * Every limit of `git` in one place (to move into src/limits.ts), each with its reason.
 */

/** Largest body one smart-HTTP request may return (a packfile): bounds memory of a clone. */
export const GIT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** Redirects followed per request, as the one fetch path allows. */
export const GIT_MAX_REDIRECTS = 5;
/** Lines of one file side that `diff` compares; longer files print "Binary files ... differ"-style notice instead of hanging the call. */
export const GIT_MAX_DIFF_LINES = 200_000;
/** Commits `log` walks at most in one call: a bound on work, since the clock does not move in CPU loops. */
export const GIT_MAX_LOG_COMMITS = 100_000;
/** Bytes of a file compared as text; bigger ones are reported like binary files. */
export const GIT_MAX_TEXT_BYTES = 8 * 1024 * 1024;
