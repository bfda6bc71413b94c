/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included before everything (as the kernel force-includes its own
 * kconfig.h): the configuration lib/percpu_counter.c is built for.  That of
 * configs/kernel.config on x86_64: SMP, 64-bit with native 64-bit atomics
 * (no CONFIG_GENERIC_ATOMIC64), CPU hotplug, a local cmpxchg (x86 and arm64
 * select HAVE_CMPXCHG_LOCAL), HZ=250.  No lockdep, no debug objects: the
 * annotations compile to nothing, as on a production kernel.
 */
#ifndef _PCC_KCONFIG_H
#define _PCC_KCONFIG_H

#define CONFIG_SMP 1
#define CONFIG_64BIT 1
#define CONFIG_HOTPLUG_CPU 1
#define CONFIG_HAVE_CMPXCHG_LOCAL 1
#define CONFIG_HZ 250
/* configs/kernel.config has 64; make NR_CPUS=N builds another */
#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS 64
#endif

#endif
