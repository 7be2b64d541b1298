/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's headers for fs/unicode/utf8-norm.c and a
 * generated utf8data.c to build as a program: the tables are then read
 * by the kernel's own code, not by a second reader of the trie.
 */
#ifndef SHIM_LINUX_TYPES_H
#define SHIM_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define MODULE_LICENSE(l)
struct rcu_head {
	void *next;
	void (*func)(struct rcu_head *head);
};
struct qstr {
	u32 hash;
	u32 len;
	const unsigned char *name;
};
#endif
