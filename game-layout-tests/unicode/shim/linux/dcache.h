/* SPDX-License-Identifier: GPL-2.0 */
/* See types.h. */
#include <linux/types.h>
