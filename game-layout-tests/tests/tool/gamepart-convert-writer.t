#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest asan
# kernels: one
# A program writes in a tree while gamepart convert converts it (patched
# kernel).  The writer starts once the conversion is under way and
# creates, renames and deletes its own files in every directory (and makes
# at most 60 directories) until the
# conversion ends, keeping account of what it did (an operation that fails
# because an entry is, for a moment, in the temporary directory is not
# done, and it says so).  Afterwards nothing it wrote is lost: each of its
# files is where its last successful operation left it, with its content,
# and nothing it deleted is back.  The tool carries the files it made
# into the converted tree: every directory is +F, those the writer made
# (some inside others it made) and renamed included (two made while the
# conversion is stopped, before their parent is converted, are reported
# converted), and the library's
# own files are as before, with the reported renames.  (The writer keeps
# out of the planted colliding directories, whose paths a rename
# changes.)
# Both ways of converting a directory are run: keeping it (the default)
# and replacing it.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	. "$guest_lib/convert.sh"
	convert_library library 400
	p=${DIRECTORIES:+$DIRECTORIES, }	# which pass a test belongs to

	# Stopped after its 20th change: the writer starts then.
	GAMEPART_TEST_CRASH_AFTER=20:stop "$gp" convert $directories --on-collision=rename \
		--json $lib >/tmp/convert.json 2>/tmp/err &
	pid=$!
	poll_until 300 process_stopped $pid
	python3 - $lib /tmp/writer.json /tmp/writer.stop <<'EOF' &
import json, os, random, sys
root, account, stop = sys.argv[1:]
rnd = random.Random(7)
# Not in the planted colliding directories: one of them is renamed, and
# a path through it then leads into the other.
dirs = [top for top, _, _ in os.walk(root)
        if "/Maps" not in top and "/MAPS" not in top]
files = {}        # path -> content, as the writer believes
made = []         # directories it made, as it believes
gone = set()
log = []          # each operation done: what, on which paths, which inode
done = failed = 0
i = 0
# A budget of directories: each walk after the plan converts those made
# before it, and a writer that never stopped making new ones inside them
# would outrun the tool's 5 walks whenever the tool runs slower than it
# (a sanitizer build in an emulated guest); the tool then rightly gives
# up, and the test would measure the two programs' pace.
mkdir_budget = 60
while not os.path.exists(stop) or i < 200:
    i += 1
    op = rnd.random()
    try:
        if op < 0.08 and len(made) < mkdir_budget:
            path = os.path.join(rnd.choice(dirs), "writer-dir-%d" % i)
            os.mkdir(path)
            dirs.append(path)
            made.append(path)
        elif op < 0.12 and made:
            old = rnd.choice(made)
            new = os.path.join(os.path.dirname(old),
                               "writer-dir-%d-renamed" % i)
            os.rename(old, new)
            moved = lambda p: new + p[len(old):] \
                if p == old or p.startswith(old + "/") else p
            files = {moved(p): data for p, data in files.items()}
            gone = {p for p in gone if moved(p) == p}
            dirs = [moved(d) for d in dirs]
            made = [moved(d) for d in made]
        elif op < 0.5 or not files:
            d = rnd.choice(dirs)
            path = os.path.join(d, "writer-%d.txt" % i)
            data = "written %d\n" % i
            with open(path, "x") as f:
                f.write(data)
                log.append([i, "create", path, None, os.fstat(f.fileno()).st_ino])
            files[path] = data
        elif op < 0.75:
            old = rnd.choice(sorted(files))
            new = os.path.join(os.path.dirname(old), "writer-%d-renamed.txt" % i)
            os.rename(old, new)
            files[new] = files.pop(old)
            gone.add(old)
            log.append([i, "rename", old, new, os.stat(new).st_ino])
        else:
            old = rnd.choice(sorted(files))
            ino = os.stat(old).st_ino
            os.unlink(old)
            del files[old]
            gone.add(old)
            log.append([i, "unlink", old, None, ino])
        done += 1
    except OSError:
        failed += 1
json.dump({"files": files, "gone": sorted(gone - set(files)),
           "dirs": made, "done": done, "failed": failed, "log": log},
          open(account, "w"))
EOF
	writer=$!
	# One for certain, whatever the writer's pace: the tree's root is
	# converted last, so this one is made before its parent is.
	mkdir $lib/writer-made-while-stopped $lib/writer-made-while-stopped/writer-sub
	echo data >$lib/writer-made-while-stopped/writer-sub/writer-file
	sleep 1
	kill -CONT $pid
	wait $pid
	is $? 0 "${p}the conversion finishes while the writer writes" ||
		diag "$(cat /tmp/err)"
	touch /tmp/writer.stop
	wait $writer
	diag "$(jq -r '"writer: \(.done) operations done, \(.failed) failed (entry away for a moment), \(.files | length) files, \(.dirs | length) directories"' /tmp/writer.json)"
	late=$(jq -r .convert.directories_made_meanwhile /tmp/convert.json)
	[ "$late" -ge 2 ] && has_f $lib/writer-made-while-stopped/writer-sub &&
		[ "$(cat $lib/writer-made-while-stopped/writer-sub/writer-file)" = data ]
	ok $? "${p}the directories made meanwhile are converted too ($late)"

	python3 - /tmp/writer.json <<'EOF'
import json, os, sys
a = json.load(open(sys.argv[1]))
bad = 0
# On standard error, so that a failure shows its paths without prove -v.
for path, data in a["files"].items():
    try:
        if open(path).read() != data:
            print("# changed: %s" % path, file=sys.stderr); bad += 1
    except OSError as e:
        print("# lost: %s: %s" % (path, e), file=sys.stderr); bad += 1
for path in a["dirs"]:
    if not os.path.isdir(path):
        print("# directory lost: %s" % path, file=sys.stderr); bad += 1
for path in a["gone"]:
    try:
        st = os.stat(path)
        print("# back: %s (inode %d, %d links, %r)"
              % (path, st.st_ino, st.st_nlink, open(path).read()),
              file=sys.stderr)
        for op in a["log"]:
            if path in op[2:4]:
                print("#   op %d: %s %s %s, inode %s" % tuple(op),
                      file=sys.stderr)
        # Whether the directory holds the name, or only the dcache does.
        listed = os.path.basename(path) in os.listdir(os.path.dirname(path))
        print("#   in its directory's listing: %s" % listed, file=sys.stderr)
        bad += 1
    except OSError:
        pass
if bad:
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("2\n")
    for path in a["gone"]:
        if os.path.lexists(path):
            print("# still back once the dcache is dropped: %s" % path,
                  file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
	ok $? "${p}every file the writer made is where it left it, nothing it deleted is back"
	# The library's own files; the writer's and the directories' mtimes
	# (it changed them) are left out.
	converted "${p}writer" $lib /tmp/before.json /tmp/convert.json --except writer-
	unmount_and_fsck
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
. "$tests_lib/gamepart.sh"
# Two CPUs, so that the writer and the conversion truly run at once.
gamepart_on_casefold_image 256M --cpus 2 --
gamepart_on_casefold_image 256M --cpus 2 --env DIRECTORIES=replace --
done_testing
