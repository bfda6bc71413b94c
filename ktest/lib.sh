# SPDX-License-Identifier: GPL-2.0
# Shared by the pipeline scripts: paths, variants, progress lines.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(realpath -m "${BUILD:-$TOP/build}")
SRC_PRISTINE=$BUILD/src/linux
SRC_PATCHED=$BUILD/src/linux-patched
# The patched tree with one planted bug (ktest/mutants/run.sh)
SRC_MUTANT=$BUILD/src/linux-mutant
# Where make series exports the series (build/outgoing/NAME/); make
# check's host checks export to a directory of their own.
SERIES_OUT=$(realpath -m "${SERIES_OUT:-$BUILD/outgoing}")
# Top-level kernel directories whose files in this repository are owned
# by the series (everything else here is tooling).
OWNED_DIRS="Documentation include kernel lib tools"

step() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The usage of each script is written once, at its top: the comment
# block from its "# usage: SCRIPT ..." line to the first line that is a
# lone "#" or not a comment.  usage prints it, without the "# ", and
# the output directory they share.
usage() {
	sed -n '/^# usage:/,/^#$/{/^#$/q;/^#/!q;s/^# \{0,1\}//;p}' "$0"
	echo "BUILD=DIR: the tooling's output directory (default: build/ of this"
	echo "tree; now $BUILD)"
}

# usage_error WHAT...: "SCRIPT: WHAT", then the usage, on stderr; exit 2.
usage_error() {
	{
		printf '%s: %s\n' "$(realpath -m --relative-to="$TOP" "$0")" "$*"
		usage
	} >&2
	exit 2
}

# usage_opt O "$@": the default case of a getopts loop in silent mode
# (":OPTSTRING", O its variable), given the script's arguments: -h and
# --help print the usage and exit 0; an unknown option, or one missing
# its argument, is a usage error.
usage_opt() {
	local o=$1 word
	shift
	word=${!OPTIND:-}
	case $o$OPTARG in
	'?h') usage; exit 0 ;;
	'?-')
		case $word in
		--help) usage; exit 0 ;;
		--?*) usage_error "unknown option $word" ;;
		esac ;;
	:?) usage_error "option -$OPTARG needs an argument" ;;
	esac
	usage_error "unknown option -$OPTARG"
}

# usage_args MIN MAX "$@": for a script that takes arguments but no
# options: -h or --help anywhere prints the usage and exits 0; an option,
# fewer than MIN or more than MAX arguments (MAX "": any number) are a
# usage error.
usage_args() {
	local min=$1 max=$2 a
	shift 2
	for a; do
		case $a in -h | --help) usage; exit 0 ;; esac
	done
	for a; do
		case $a in -?*) usage_error "unknown option $a" ;; esac
	done
	[ $# -ge "$min" ] || usage_error "missing argument"
	[ -z "$max" ] || [ $# -le "$max" ] || {
		shift "$max"
		usage_error "unexpected argument $1"
	}
}

# The source tree a variant is built from: the "# tree:" line of its
# fragment, "patched", "pristine", "mutant" or "but-last SERIES"
# (ktest/build/prepare-but-last.sh makes that one).
variant_tree() {
	local frag=$TOP/ktest/configs/variants/$(variant_config "$1").config tree
	[ -f "$frag" ] || die "unknown variant '$1' (no ktest/configs/variants/$1.config)"
	tree=$(sed -n 's/^# tree: *//p' "$frag")
	case $tree in
	patched) echo "$SRC_PATCHED" ;;
	pristine) echo "$SRC_PRISTINE" ;;
	mutant) echo "$SRC_MUTANT" ;;
	"but-last "?*) echo "$BUILD/src/linux-but-last-${tree#but-last }" ;;
	*) die "ktest/configs/variants/$1.config: missing '# tree: patched|pristine|mutant|but-last SERIES' line" ;;
	esac
}

# Files the series owns, relative to the tree root.
owned_files() {
	(cd "$TOP" && for d in $OWNED_DIRS; do
		[ -d "$d" ] || continue
		find "$d" -type f
	done) | LC_ALL=C sort
}

# Files the quilt patches touch.
patched_files() {
	local p
	for p in $(series_patches); do
		patch_paths "$TOP/patches/$p"
	done | LC_ALL=C sort -u
}

# The patches of patches/series, in order.
series_patches() {
	[ -f "$TOP/patches/series" ] || return 0
	series_parse "$TOP/patches/series"
}

# The patch names a quilt series file lists, in order: FILE, or stdin
# (e.g. `git show REV:patches/series | series_parse`).
series_parse() {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' \
		-e '/^$/d' ${1:+"$1"}
}

# The paths a patch changes (quilt or git format), sorted: PATCH..., or
# stdin.
patch_paths() {
	sed -n -e 's|^+++ b/\([^[:space:]]*\).*|\1|p' \
		-e 's|^--- a/\([^[:space:]]*\).*|\1|p' "$@" | LC_ALL=C sort -u
}

# mutant_cases PATCH: the tests of which one must fail on the bug that
# ktest/mutants/PATCH plants (its Caught-by: line): KUnit cases of the
# percpu_counter module (CASE) or cases of a kselftest program of the
# series (PROG:CASE).
mutant_cases() {
	sed -n 's/^Caught-by: *//p' "$1" | xargs -n1
}

# mutant_suites PATCH...: what the guest runs for their cases
# (ktest/guest/mutant.sh's arguments): "kunit" for KUnit cases, DIR:PROG
# for a kselftest program, one per line.
mutant_suites() {
	local c
	for c in $(for p in "$@"; do mutant_cases "$p"; done); do
		case $c in
		*:*) (cd "$TOP/tools/testing/selftests" && ls -- */"${c%%:*}.c" 2>/dev/null) |
			sed 's|/\(.*\)\.c$|:\1|' ;;
		*) echo kunit ;;
		esac
	done | LC_ALL=C sort -u
}

# seed_pristine DIR PATH...: make DIR's copy of each PATH the base tree's
# (a copy of its own, never a hard link), or remove it where the base
# tree has none: the pristine files a series is applied to.
seed_pristine() {
	local dir=$1 p
	shift
	for p in "$@"; do
		rm -f "$dir/$p"
		[ -f "$SRC_PRISTINE/$p" ] || continue
		mkdir -p "$dir/$(dirname "$p")"
		cp "$SRC_PRISTINE/$p" "$dir/$p"
	done
}

# The series sent upstream, each on its own to its own maintainers, in
# build/outgoing/NAME/: NAME, then the paths (files or directories) that
# make a patch part of it.  A patch belongs to the one series that all its
# paths but MAINTAINERS fall under.
OUTGOING="percpu_counter cpuacct"
outgoing_paths() {
	case $1 in
	percpu_counter)
		echo include/linux/percpu_counter.h lib/percpu_counter.c \
			tools/testing/selftests/percpu_counter/ ;;
	cpuacct)
		echo Documentation/admin-guide/cgroup-v1/cpuacct.rst \
			include/linux/cgroup.h kernel/sched/ \
			tools/testing/selftests/cpuacct/ ;;
	*) die "no outgoing series '$1'" ;;
	esac
}

# outgoing_of PATH...: the series those paths (MAINTAINERS aside) belong
# to; empty if none, "PATH: ..." lines on stderr and failure if they are
# not all one series'.
outgoing_of() {
	local p s q d found= bad=0
	for p in "$@"; do
		[ "$p" = MAINTAINERS ] && continue
		s=
		for q in $OUTGOING; do
			for d in $(outgoing_paths "$q"); do
				case $p in "$d" | "${d%/}"/*) s=$q ;; esac
			done
		done
		if [ -z "$s" ]; then
			echo "$p: in no series of OUTGOING (ktest/lib.sh)" >&2
			bad=1
		elif [ -n "$found" ] && [ "$found" != "$s" ]; then
			echo "$p: of series $s, with paths of series $found" >&2
			bad=1
		fi
		found=${found:-$s}
	done
	[ $bad = 0 ] || return 1
	echo "$found"
}

JOBS=${JOBS:-$(nproc)}

# Replaying kbuild's compiler commands (checks/series-build.sh, checks/api.sh).
# kbuild_cmds OUT: the command files (./DIR/.NAME.o.cmd) of the kernel
# objects of the kbuild output directory OUT, those of tools/ and of the
# uapi headers (hdr/) aside.
kbuild_cmds() {
	(cd "$1" && find . -name '.*.o.cmd' -not -path './tools/*' -not -path './hdr/*')
}

# kbuild_users OUT PATH CMD...: those command files of OUT whose object
# was built from or with PATH of build/src/linux-patched (their
# dependencies name it).
kbuild_users() {
	local out=$1 path=$2
	shift 2
	(cd "$out" && grep -lF "linux-patched/$path" "$@" 2>/dev/null)
}

# kbuild_obj CMD: the object of a command file, DIR/NAME.o.
kbuild_obj() {
	local o=${1#./}
	echo "$(dirname "$o")/$(basename "$o" .cmd | sed 's/^\.//')"
}

# kbuild_replay [--ccache] OUT CMD OUTPUT [SED-ARGS...]: compile again,
# in OUT, the object of command file CMD with the command line kbuild
# saved in it: the compiler's command only (not what kbuild ran after
# it), without the dependency file (-Wp,-MMD) and without ccache; its
# "-c -o OBJECT" replaced by OUTPUT ("-fsyntax-only", "-c -o FILE": never
# OUT's own object), then edited by sed with SED-ARGS (e.g. -e 's|...|').
# --ccache: through ccache, if installed, as build/kernel.sh builds (an
# unchanged compile is not run again; pointless for -fsyntax-only, which
# ccache does not cache).  The compiler's exit status and output.
kbuild_replay() {
	local ccache= out cmd output line
	if [ "$1" = --ccache ]; then
		command -v ccache >/dev/null && ccache="ccache "
		shift
	fi
	out=$1 cmd=$2 output=$3
	shift 3
	line=$(sed -n 's/^savedcmd_[^ ]* := //p' "$out/$cmd" | head -n1)
	case $line in
	*" -c -o "*) ;;
	*) echo "error: $cmd: no compiler command (-c -o) in it"; return 1 ;;
	esac
	line=$ccache$(echo "$line" | sed -e 's/;.*//' -e 's/^ccache //' \
		-e 's/ -Wp,-MMD,[^ ]*//' -e "s| -c -o [^ ]*| $output|" "$@")
	(cd "$out" && export CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 && eval "$line")
}

# build_module SRC VARIANT NAME: the out-of-tree module in SRC, built with
# M= against VARIANT's kernel, in build/VARIANT/NAME-src: kbuild writes
# into M=, so a copy (rsync keeps mtimes, so rebuilds are incremental).
build_module() {
	local out=$BUILD/$2 log=$BUILD/logs/$2-module-$3.log

	arch_of "$2"
	mkdir -p "$out/$3-src"
	rsync -a --delete --exclude='*.o' --exclude='*.ko' "$1/" "$out/$3-src/"
	make -s -C "$out" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
		M="$out/$3-src" modules >"$log" 2>&1 ||
		{ cat "$log" >&2; die "$3 module build failed (log: $log)"; }
}

# kselftest targets the series adds (each has a `config` fragment).
SELFTESTS=$(cd "$TOP/tools/testing/selftests" 2>/dev/null && for d in */; do
	[ -f "$d/Makefile" ] && echo "${d%/}"; done | xargs)

# Guest architectures. A variant named ARCH-V (i386-patched, arm64-base)
# is ktest/configs/variants/V.config built for ARCH in build/ARCH-V; a plain V is x86_64.
# arch_of VARIANT sets, for the variant's architecture:
#   KARCH, CROSS   the kernel's ARCH= and CROSS_COMPILE= ("" = the host's)
#   IMAGE          the boot image, relative to the build dir
#   QEMU           the system emulator and machine options
#   CONSOLE        the serial console the guest writes to
#   DEBARCH        Debian's name for it (busybox-static of that arch)
#   APFX           the variant name's prefix ("" for x86_64)
arch_of() {
	case $1 in
	i386-*)
		KARCH=i386 CROSS=i686-linux-gnu- IMAGE=arch/x86/boot/bzImage
		QEMU="qemu-system-i386 -cpu coreduo" CONSOLE=ttyS0 DEBARCH=i386
		APFX=i386- ;;
	arm64-*)
		KARCH=arm64 CROSS=aarch64-linux-gnu- IMAGE=arch/arm64/boot/Image
		QEMU="qemu-system-aarch64 -M virt -cpu cortex-a57"
		CONSOLE=ttyAMA0 DEBARCH=arm64 APFX=arm64- ;;
	*)
		KARCH=x86_64 CROSS= IMAGE=arch/x86/boot/bzImage
		QEMU=qemu-system-x86_64 CONSOLE=ttyS0 DEBARCH=amd64 APFX= ;;
	esac
}

# The config fragment of a variant: its name without the arch prefix.
variant_config() {
	arch_of "$1"
	echo "${1#"$APFX"}"
}

# fetch_busybox DEBARCH: Debian's busybox-static for DEBARCH, unpacked in
# build/busybox-DEBARCH. apt works from its own lists in build/apt-DEBARCH,
# so the host's apt configuration is not changed and no root is needed.
fetch_busybox() {
	local a=$1 d=$BUILD/apt-$1
	step "fetching Debian's busybox-static:$a"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	local o=(-o "APT::Architectures=$a" -o "Dir::State::Lists=$d/lists"
		 -o "Dir::Cache=$d/cache" -o Debug::NoLocking=1
		 -o APT::Sandbox::User="$(id -un)")
	# A suite whose index fails (a mirror mid-sync) need not hold it.
	apt-get -qq "${o[@]}" update || true
	(cd "$d" && rm -f ./*.deb && apt-get -qq "${o[@]}" download "busybox-static:$a") ||
		die "could not download busybox-static:$a"
	rm -rf "$BUILD/busybox-$a"
	dpkg -x "$d"/busybox-static_*_"$a".deb "$BUILD/busybox-$a"
}

# The busybox the guest runs: Debian's busybox-static, the host's own for
# x86_64, else the one deps.sh unpacked into build/busybox-DEBARCH.
busybox_of() {
	arch_of "$1"
	if [ "$DEBARCH" = amd64 ]; then
		echo /bin/busybox
	else
		echo "$BUILD/busybox-$DEBARCH/bin/busybox"
	fi
}
