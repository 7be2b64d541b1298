/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of include/linux/nls.h for fs/smb/client/winucase.c to
 * build as part of a program (winucase-dump.c): the kernel's wchar_t is
 * one UTF-16 code unit.
 */
#ifndef SHIM_LINUX_NLS_H
#define SHIM_LINUX_NLS_H
#include <stddef.h>
#include <stdint.h>
#define wchar_t uint16_t
#endif
