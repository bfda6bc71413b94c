// SPDX-License-Identifier: GPL-2.0
/*
 * A control for text patching under QEMU, using nothing of the series:
 * flip a static key of this module's own while a kthread bound to every
 * online CPU runs the key's site in a loop, so that text_poke_bp() patches
 * code that every other vCPU is running.  Loaded by the keyflip guest job
 * (ktest/keyflip/control.sh).
 */
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/jump_label.h>
#include <linux/sched.h>
#include <linux/slab.h>

static unsigned int flips = 3000;
module_param(flips, uint, 0444);
MODULE_PARM_DESC(flips, "enable+disable pairs of the key");

static DEFINE_STATIC_KEY_FALSE(keyflip_key);
static DEFINE_PER_CPU(unsigned long, keyflip_hits);

static noinline void keyflip_site(void)
{
	if (static_branch_unlikely(&keyflip_key))
		this_cpu_inc(keyflip_hits);
}

static int keyflip_spin(void *unused)
{
	while (!kthread_should_stop()) {
		keyflip_site();
		cond_resched();
	}
	return 0;
}

static int __init keyflip_init(void)
{
	struct task_struct **t;
	unsigned int i;
	int cpu;

	t = kcalloc(nr_cpu_ids, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		t[cpu] = kthread_create_on_cpu(keyflip_spin, NULL, cpu, "keyflip/%u");
		if (IS_ERR(t[cpu]))
			t[cpu] = NULL;
		else
			wake_up_process(t[cpu]);
	}
	cpus_read_unlock();

	for (i = 1; i <= flips; i++) {
		static_branch_enable(&keyflip_key);
		static_branch_disable(&keyflip_key);
		/* KERN_ERR: the console shows only errors (quiet) */
		if (i % 250 == 0)
			pr_err("keyflip: %u flips\n", i);
		cond_resched();
	}

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (t[cpu])
			kthread_stop(t[cpu]);
	kfree(t);
	return 0;
}

static void __exit keyflip_exit(void)
{
}

module_init(keyflip_init);
module_exit(keyflip_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Flip a static key under load: a QEMU text-patching control");
