/* WASI has no user database; the sqlite3 shell only asks it for $HOME's
 * fallback, so it finds no entry and keeps using $HOME. */
#ifndef TOOLSHED_PWD_H
#define TOOLSHED_PWD_H
#include <sys/types.h>
struct passwd { char *pw_name; char *pw_passwd; uid_t pw_uid; gid_t pw_gid; char *pw_gecos; char *pw_dir; char *pw_shell; };
static inline struct passwd *getpwuid(uid_t uid) { (void)uid; return 0; }
static inline uid_t getuid(void) { return 0; }
#endif
