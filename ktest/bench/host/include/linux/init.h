/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_INIT_H
#define _PCC_LINUX_INIT_H

/*
 * The initcall is what the harness (impl.c) calls, once per build, before
 * any counter exists, as do_initcalls() would.
 */
#define module_init(fn)	int (*const pcc_initcall)(void) = (fn)

#endif
