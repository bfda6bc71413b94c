# SPDX-License-Identifier: GPL-2.0
#
# cpuacct-scale: build Linux 6.12 with the series, boot it in QEMU, test it.
#
#   make                 build the patched kernel, boot it, show cpuacct at work
#   make check           all tests: host checks, then the guest suite (CI)
#   make check-tooling   the host checks of the tooling alone
#   make check-arch      the guest suite on i386 and arm64 guests (not CI)
#   make check-debug     guest suite and stress job on debug, stress on kcsan
#   make check-debug-control  check-debug's guest suite on stock 6.12
#   make stress          check-debug's stress job alone, on VARIANT
#   make bench           base, patched, but-last, nocpuacct: build/bench/report.md
#   make bench-scale     base vs patched at 1, 2, 4, ... vCPUs
#   make bench-host      lib/percpu_counter.c of both trees in userspace
#   make bench-host-static  the same as one static binary to copy anywhere
#   make bench-host-mutants do pcc-bench's checks fail on the planted bugs
#   make series          export the two series to build/outgoing/NAME/
#   make shell           interactive guest
#   make keyflip-control does text patching survive on this QEMU
#   make mutants         do the series' tests fail on planted bugs
#
# What a target does in detail, and the variables its script reads
# (ROUNDS, ONLY, RUNS, ...): SCRIPT -h, for the script of its recipe below
# (e.g. ktest/bench/run.sh -h).  This Makefile's own variables: VARIANT,
# ARCH, SMP, STRESS_SECS, DEPS_ARCHES (README.md, Variables).
#
# The pipeline, for a variant V (ktest/configs/variants/V.config):
#
#   deps -> src -> kernel-V -> tests-V -> initramfs-V -> qemu-run.sh -> ktap-summary.py
#
#   deps         Debian packages, installed only if missing    ktest/build/deps.sh
#   src          base tree + the series (build/src/)          ktest/build/prepare-src.sh
#   kernel-V     tinyconfig + fragments, bzImage (build/V/)    ktest/build/kernel.sh
#   tests-V      kselftests (static), test modules (M=)       ktest/build/tests.sh
#   initramfs-V  busybox, ktest/guest/*, tests, modules      ktest/build/initramfs.sh
#
# ARCH=i386|arm64 (default x86_64) prefixes the variant: i386-patched is
# ktest/configs/variants/patched.config (+ ktest/configs/arch/i386.config) for i386, in
# build/i386-patched, cross-compiled, booted in that arch's QEMU.
#
# The base tree (KSRC=...): ktest/build/prepare-src.sh -h. Logs go to
# build/logs/.

VARIANT ?= patched
SMP ?= 2
S := ktest
BUILD ?= $(CURDIR)/build
export BUILD
ARCH ?= x86_64
GUEST_ARCHES := i386 arm64
ifeq ($(filter $(ARCH),x86_64 $(GUEST_ARCHES)),)
$(error ARCH=$(ARCH): one of x86_64 $(GUEST_ARCHES))
endif
# The variant prefix of ARCH: build/i386-patched is i386's patched.
AP := $(if $(filter x86_64,$(ARCH)),,$(ARCH)-)
BASE_VARIANT := $(VARIANT)
override VARIANT := $(AP)$(VARIANT)
# The host checks (the series itself, and the tooling) are the same on
# every arch: x86_64's.
HOSTLOG := $(if $(filter x86_64,$(ARCH)),$(BUILD)/logs/host-check.log)
TOOLLOG := $(if $(filter x86_64,$(ARCH)),$(BUILD)/logs/tooling-check.log)
DEPS_ARCHES ?= $(filter-out x86_64,$(ARCH))

all: demo

deps:
	@$(S)/build/deps.sh $(DEPS_ARCHES)
src: deps
	@$(S)/build/prepare-src.sh
kernel-%: src
	@$(S)/build/kernel.sh $*
tests-%: kernel-%
	@$(S)/build/tests.sh $*
initramfs-%: tests-%
	@$(S)/build/initramfs.sh $*

demo: initramfs-$(AP)patched
	@$(S)/run/qemu-run.sh -v $(AP)patched -m demo -t 300

# Host checks and the guest run all print KTAP, a section each; the
# summary counts each, then all of them.
check: initramfs-$(VARIANT)
	$(if $(HOSTLOG),-@$(S)/checks/host.sh | tee $(HOSTLOG))
	$(if $(TOOLLOG),-@$(S)/checks/tooling.sh | tee $(TOOLLOG))
	-@$(S)/run/qemu-run.sh -v $(VARIANT) -m check -s $(SMP)
	@$(S)/run/ktap-summary.py $(HOSTLOG) $(TOOLLOG) \
		$(BUILD)/logs/$(VARIANT)-check.log

# The checks of the tooling itself (make check runs them too).
check-tooling: src
	@mkdir -p $(BUILD)/logs
	-@$(S)/checks/tooling.sh | tee $(BUILD)/logs/tooling-check.log
	@$(S)/run/ktap-summary.py $(BUILD)/logs/tooling-check.log

# The debug variants are slow under TCG: the stress job runs STRESS_SECS.
# Its tests may run 120 s over that, then come allocation failures, the
# kmemleak scans and the boot: 780 s more is what held at 120.
STRESS_SECS ?= 120
STRESS_TIMEOUT = $(shell echo $$(($(STRESS_SECS) + 780)))
# x86_64 only: i386 has neither KASAN nor KCSAN, arm64's KCSAN runs
# through `make stress ARCH=arm64 VARIANT=kcsan`.
check-debug: $(if $(AP),check-debug-x86_64-only) initramfs-debug initramfs-kcsan
	-@$(S)/run/qemu-run.sh -v debug -m check -s $(SMP) -t 1800
	-@$(S)/run/qemu-run.sh -v debug -m stress -s $(SMP) -a $(STRESS_SECS) -t $(STRESS_TIMEOUT)
	-@$(S)/run/qemu-run.sh -v kcsan -m stress -s $(SMP) -a $(STRESS_SECS) -t $(STRESS_TIMEOUT)
	@$(S)/run/ktap-summary.py $(BUILD)/logs/debug-check.log \
		$(BUILD)/logs/debug-stress.log $(BUILD)/logs/kcsan-stress.log
check-debug-x86_64-only:
	$(error make check-debug runs on x86_64 only; for arm64's KCSAN: \
		make stress ARCH=arm64 VARIANT=kcsan)

# The same guest suite on stock 6.12 with debug's checkers: the control.
check-debug-control: $(if $(AP),check-debug-x86_64-only) initramfs-base-debug
	-@$(S)/run/qemu-run.sh -v base-debug -m check -s $(SMP) -t 1800
	@$(S)/run/ktap-summary.py $(BUILD)/logs/base-debug-check.log

# The stress job alone, on VARIANT (check-debug runs it on debug and kcsan).
stress: initramfs-$(VARIANT)
	-@$(S)/run/qemu-run.sh -v $(VARIANT) -m stress -s $(SMP) -a $(STRESS_SECS) -t $(STRESS_TIMEOUT)
	@$(S)/run/ktap-summary.py $(BUILD)/logs/$(VARIANT)-stress.log

# make check's guest suite on both other architectures, one count line.
check-arch: DEPS_ARCHES = $(GUEST_ARCHES)
check-arch: $(foreach a,$(GUEST_ARCHES),initramfs-$(a)-$(BASE_VARIANT))
	-@$(S)/run/qemu-run.sh -v i386-$(BASE_VARIANT) -m check -s $(SMP)
	-@$(S)/run/qemu-run.sh -v arm64-$(BASE_VARIANT) -m check -s $(SMP)
	@$(S)/run/ktap-summary.py $(foreach a,$(GUEST_ARCHES),\
		$(BUILD)/logs/$(a)-$(BASE_VARIANT)-check.log)

# Real time: never more vCPUs than host cores (bench/run.sh refuses).
bench: initramfs-$(AP)base initramfs-$(AP)patched initramfs-$(AP)but-last \
	initramfs-$(AP)nocpuacct
	@SMP=$(SMP) ARCH=$(ARCH) $(S)/bench/run.sh
bench-scale: initramfs-$(AP)base initramfs-$(AP)patched
	@ARCH=$(ARCH) $(S)/bench/run.sh scale

# lib/percpu_counter.c of both trees in one userspace program
# (ktest/bench/host/): threads on the host's cores instead of vCPUs.
bench-host: src
	@$(S)/bench/host/run.sh
bench-host-static: src
	@nice $(MAKE) -s -C $(S)/bench/host O=$(BUILD)/bench-host static
	@echo "build/bench-host/pcc-bench-static: copy it, run it (bench -o runs.csv -s summary.csv; check)"
bench-host-mutants: src
	@$(S)/bench/host/mutants.sh

series: src
	@$(S)/series/export.sh

# Does text patching survive on this QEMU? (docs/text-patching.md)
keyflip-control: initramfs-$(VARIANT)
	@$(S)/keyflip/control.sh $(VARIANT)

# Each ktest/mutants/NAME.patch plants a bug its Caught-by: tests must
# catch (MUTANTS="NAME ..." for some only).
mutants: src
	@$(S)/mutants/run.sh

shell: initramfs-$(VARIANT)
	@$(S)/run/qemu-run.sh -v $(VARIANT) -m shell -s $(SMP)

clean:
	rm -rf $(BUILD)

.PHONY: all deps src demo check check-tooling check-arch check-debug check-debug-control \
	stress bench bench-scale bench-host bench-host-static bench-host-mutants \
	series keyflip-control mutants shell clean
