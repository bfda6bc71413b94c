/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU hotplug states: the runtime keeps the callbacks and runs them when
 * the harness takes a CPU slot down or brings one up (pcc_cpu_down/up),
 * in kernel/cpu.c's order: a dead CPU's teardown runs on another CPU, with
 * the CPU out of the online mask and in the dying mask.
 */
#ifndef _PCC_LINUX_CPU_H
#define _PCC_LINUX_CPU_H

#include <linux/cpumask.h>
#include <pcc.h>

enum cpuhp_state {
	CPUHP_OFFLINE = 0,
	CPUHP_PERCPU_CNT_DEAD = 1,	/* a BP state: runs after the CPU died */
	CPUHP_AP_ONLINE_DYN = 2,	/* dynamic: gets a state of its own */
};

#define cpuhp_setup_state(state, name, startup, teardown)		\
	pcc_cpuhp_setup((state), (name), (startup), (teardown), 1)
#define cpuhp_setup_state_nocalls(state, name, startup, teardown)	\
	pcc_cpuhp_setup((state), (name), (startup), (teardown), 0)

#endif
