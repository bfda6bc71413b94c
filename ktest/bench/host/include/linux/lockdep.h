/* SPDX-License-Identifier: GPL-2.0 */
/* As without CONFIG_LOCKDEP: the annotations check nothing */
#ifndef _PCC_LINUX_LOCKDEP_H
#define _PCC_LINUX_LOCKDEP_H

struct lock_class_key {
	char dummy;
};

#define lockdep_set_class(lock, key)	do { (void)(lock); (void)(key); } while (0)
#define lockdep_assert_held(lock)	do { (void)(lock); } while (0)
#define lockdep_assert_irqs_disabled()	do { } while (0)
/* No NMI here: nothing is ever nested in a fold */
#define irqs_disabled()			0

#endif
