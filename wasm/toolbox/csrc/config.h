/* The few definitions GNU gzip's deflate.c, trees.c and bits.c take from the config.h its
   configure script writes; the toolbox compiles only those three files (see shim.c). */
#ifndef TOOLBOX_GZIP_CONFIG_H
#define TOOLBOX_GZIP_CONFIG_H
#define _GL_ATTRIBUTE_CONST __attribute__ ((__const__))
#define _GL_ATTRIBUTE_PURE __attribute__ ((__pure__))
#define HAVE_STDNORETURN_H 1
#endif
