/* The toolbox's door into GNU gzip's own deflate (deflate.c, trees.c and bits.c from Debian's
   gzip source package, compiled beside this file by wasm/toolbox/build.rs). zlib's deflate picks
   other matches and block ends than gzip's does, so only gzip's code gives GNU's bytes.

   gzip keeps its state in globals that gzip.c and util.c define; this file defines the ones the
   three files use, feeds input from memory instead of a file descriptor and hands each full
   output buffer to the Rust caller. It writes only the raw deflate data: the gzip header and
   trailer are the toolbox's (src/cmd/gz.rs). Not reentrant: the toolbox is single-threaded. */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include "tailor.h"
#include "gzip.h"
#include "lzw.h" /* BITS: the size of prev[] and head[] together */

DECLARE(uch, inbuf, INBUFSIZ + INBUF_EXTRA);
DECLARE(uch, outbuf, OUTBUFSIZ + OUTBUF_EXTRA);
DECLARE(ush, d_buf, DIST_BUFSIZE);
DECLARE(uch, window, 2L * WSIZE);
DECLARE(ush, tab_prefix, 1L << BITS);

unsigned insize, inptr, outcnt;
int rsync = 0;
off_t bytes_in, bytes_out, header_bytes;
int ifd, ofd;
int method = DEFLATED;
int level = 6;
int verbose = 0;
int quiet = 1;
int exit_code = 0;

/* Rust side: appends `n` bytes of output to the buffer `ctx` names. */
extern void toolbox_gzip_out(void *ctx, const unsigned char *p, size_t n);

static const unsigned char *src;
static size_t src_len, src_pos;
static void *sink;

/* gzip reads its input through read_buf; a regular file gives all that is asked. */
static int mem_read(char *buf, unsigned size)
{
    size_t left = src_len - src_pos;
    unsigned n = left < size ? (unsigned) left : size;
    memcpy(buf, src + src_pos, n);
    src_pos += n;
    bytes_in += n;
    return (int) n;
}

int file_read(char *buf, unsigned size) { return mem_read(buf, size); }

void flush_outbuf(void)
{
    if (outcnt == 0) return;
    toolbox_gzip_out(sink, outbuf, outcnt);
    bytes_out += outcnt;
    outcnt = 0;
}

void write_buf(int fd, voidp buf, unsigned cnt)
{
    (void) fd;
    toolbox_gzip_out(sink, buf, cnt);
}

/* Only a level outside 1..9 gets here, and the caller checks that first. */
void gzip_error(char const *m) { (void) m; abort(); }
void xalloc_die(void) { abort(); }
void read_error(void) { abort(); }
void write_error(void) { abort(); }

/* Deflates `len` bytes at `in` at `lvl` (1..9) as gzip does, output to `ctx` through
   toolbox_gzip_out (--rsyncable's block ends when `rsyncable`). Returns 0, or -1 for a bad level. */
int toolbox_gzip_deflate(const unsigned char *in, size_t len, int lvl, int rsyncable, void *ctx)
{
    ush attr = 0;
    if (lvl < 1 || lvl > 9) return -1;
    src = in, src_len = len, src_pos = 0, sink = ctx;
    insize = inptr = outcnt = 0;
    bytes_in = bytes_out = header_bytes = 0;
    level = lvl;
    rsync = rsyncable != 0;
    method = DEFLATED;
    read_buf = mem_read;
    bi_init(NO_FILE);
    ct_init(&attr, &method);
    deflate(lvl);
    flush_outbuf();
    src = NULL, sink = NULL;
    return 0;
}
