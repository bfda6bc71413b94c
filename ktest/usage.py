# SPDX-License-Identifier: GPL-2.0
"""The arguments of the python tools of ktest/, as lib.sh's usage helpers
are the shell scripts': each tool's usage is its module docstring, which
starts "usage: SCRIPT ...".  Imported, not run."""
import sys


def error(doc, what):
	"""'SCRIPT: what', then the usage doc, on stderr; exit 2."""
	sys.stderr.write(f'{doc.split()[1]}: {what}\n{doc}')
	sys.exit(2)


def parse(doc, argv, flags=(), nargs=(0, None)):
	"""The arguments argv (sys.argv[1:]) of the tool whose usage is doc,
	as (the flags of flags given, the other arguments).  -h or --help
	prints doc and exits 0; another option, fewer other arguments than
	nargs[0] or more than nargs[1] (None: any number) are an error."""
	if '-h' in argv or '--help' in argv:
		sys.stdout.write(doc)
		sys.exit(0)
	for a in argv:
		if a.startswith('-') and a != '-' and a not in flags:
			error(doc, f'unknown option {a}')
	args = [a for a in argv if a not in flags]
	if len(args) < nargs[0]:
		error(doc, 'missing argument')
	if nargs[1] is not None and len(args) > nargs[1]:
		error(doc, f'unexpected argument {args[nargs[1]]}')
	return {a for a in argv if a in flags}, args
