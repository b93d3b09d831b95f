/*
 * Force-included (-include) when SQLite and CPython are compiled for WASI.
 * WASI preview1 has no owners, modes or advisory locks. A session runs its
 * programs one at a time over its own workspace, so SQLite's POSIX locks
 * are answered as always granted and ownership calls as no-ops.
 */
#ifndef TOOLSHED_WASI_SHIM_H
#define TOOLSHED_WASI_SHIM_H
#include <fcntl.h>
#include <unistd.h>
#include <sys/types.h>
#include <stdarg.h>

#ifndef F_RDLCK
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#endif
#ifndef F_GETLK
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#endif

static inline int toolshed_fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  if (cmd == F_GETLK) {
    struct flock *l = va_arg(ap, struct flock *);
    va_end(ap);
    l->l_type = F_UNLCK;
    return 0;
  }
  if (cmd == F_SETLK || cmd == F_SETLKW) {
    va_end(ap);
    return 0;
  }
  int arg = va_arg(ap, int);
  va_end(ap);
  return fcntl(fd, cmd, arg);
}
#define fcntl toolshed_fcntl
static inline int toolshed_fchmod(int fd, mode_t m) { (void)fd; (void)m; return 0; }
static inline int toolshed_fchown(int fd, uid_t u, gid_t g) { (void)fd; (void)u; (void)g; return 0; }
static inline uid_t toolshed_geteuid(void) { return 0; }
static inline int toolshed_chmod(const char *p, mode_t m) { (void)p; (void)m; return 0; }
#define chmod toolshed_chmod
#define fchmod toolshed_fchmod
#define fchown toolshed_fchown
#define geteuid toolshed_geteuid
#endif
