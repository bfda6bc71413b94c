/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included before everything (as the kernel force-includes its own
 * kconfig.h): the configuration lib/percpu_counter.c is built for.  That of
 * configs/kernel.config on x86_64: SMP, 64-bit with native 64-bit atomics
 * (no CONFIG_GENERIC_ATOMIC64), CPU hotplug, a local cmpxchg (x86 and arm64
 * select HAVE_CMPXCHG_LOCAL), HZ=250.  No lockdep, no debug objects, no
 * KUnit: the annotations compile to nothing, as on a production kernel.
 */
#ifndef _PCC_KCONFIG_H
#define _PCC_KCONFIG_H

/* As the kernel's kconfig.h: 1 for an option defined to 1, else 0 */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_BUILTIN(option)	__is_defined(option)
#define IS_MODULE(option)	__is_defined(option##_MODULE)
#define IS_ENABLED(option)	(IS_BUILTIN(option) || IS_MODULE(option))

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
