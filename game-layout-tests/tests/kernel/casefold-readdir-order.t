#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# groups: guest
# kernels: each
# The patched kernel hashes names its own way (patch 23: one fold buffer
# per block, ASCII packed a word at a time and lowered as it is packed in
# +F) but must hash them exactly as stock 6.1 does: an indexed
# readdir returns entries in hash order, so the two kernels must list a
# directory in the same order, byte for byte.  The patched kernel writes a
# +F directory and a plain one with the same names (ASCII names, names
# that fold to other lengths, 255-byte names, a name whose folded form is
# longer than 255 bytes, invalid UTF-8, names of every length in mixed
# case; in the plain one also random bytes); e2fsck 1.47.0 finds both clean;
# the stock kernel lists both in the same order and finds every +F name
# spelt in upper case.

if [ "${1-}" = --guest ]; then
	. "$(dirname "$0")/../../lib/guest.sh"
	kernel=$2
	phase=$3
	mount_disk /dev/vda $mnt || { echo "not ok - mount"; exit 1; }
	d=$mnt/names
	if [ "$phase" = write ]; then
		mkdir $d $mnt/plain && chattr +F $d
		python3 - "$d" "$mnt/plain" <<'PY'
import os, random, string, sys
names = ['Texture-%05d.DDS' % i for i in range(3000)]
names += ['stra\u00dfe-%d.txt' % i for i in range(50)]          # folds to ss
names += ['\u212aelvin-%d.ini' % i for i in range(50)]          # KELVIN SIGN
names += ['Cre\u0300me-%d.dds' % i for i in range(50)]          # decomposed
names += ['\u0390' * 120 + '-%d' % i for i in range(20)]        # folds to 720 bytes
names += ['L' * (252 - len(str(i))) + '-%d.x' % i for i in range(20)]  # 255 bytes
# Every length from 5 to 255 in mixed case, so that the hash meets each
# split of a name into groups of four bytes and a tail.
rng = random.Random(22)
ascii = string.ascii_letters + string.digits + '._-'
names += ['r%03d' % i + ''.join(rng.choice(ascii) for _ in range(i % 251 + 1))
          for i in range(400)]
for d in sys.argv[1:]:
    for n in names:
        open(os.path.join(d, n), 'w').close()
    for i in range(20):                                         # not UTF-8
        open(os.path.join(d.encode(), b'bad-\xff\xfe-%d' % i), 'w').close()
# Any bytes but NUL, '/' and the listing's newline, of every length from
# 9 to 255, in the plain directory: groups with bytes of 0x80 and more,
# which hash as signed chars on x86.  (Not in the +F one: e2fsck 1.47.0
# finds some such names there hashed otherwise than 6.1.192 does, stock
# and patched alike.)
plain = sys.argv[2]
rng = random.Random(22)
for i in range(400):
    tail = bytes(rng.choice([b for b in range(1, 256) if b not in b'/\n'])
                 for _ in range(i % 247 + 1))
    open(os.path.join(plain.encode(), b'bad-%03d-' % i + tail), 'w').close()
PY
		ok $? "patched: 3,610 names written in a +F directory and in a plain one, which has 400 more"
	fi
	ls -f $d >$mnt/listing-$kernel
	ls -f $mnt/plain >$mnt/listing-plain-$kernel
	is "$(wc -l <$mnt/listing-$kernel) $(sort -u $mnt/listing-$kernel | grep -vc '^\.\.\?$')" \
		"3612 3610" "$kernel: readdir lists . and .. and every name, each once"
	if [ "$phase" = read ]; then
		bad=$(python3 - "$d" "$mnt/listing-$kernel" <<'PY'
import os, sys
d, listing = sys.argv[1].encode(), sys.argv[2]
bad = 0
for n in open(listing, 'rb').read().split(b'\n'):
    if n in (b'', b'.', b'..') or n.startswith(b'bad-'):
        continue
    up = n.decode().upper().encode()
    if len(up) > 255:        # upper case can be longer: \u0390 is 3 code points
        up = n
    if not os.path.exists(os.path.join(d, up)):
        bad += 1
        print('# not found:', up, file=sys.stderr)
print(bad)
PY
)
		is $bad 0 "$kernel: every name written by the patched kernel is found in upper case"
	fi
	umount $mnt
	done_testing
	exit
fi

. "$(dirname "$0")/../../lib/host.sh"
require_kernel $(test_kernels)
require_cmd python3 debugfs e2fsck
make_scratch
[ -n "$(ab_pairs)" ] || skip_all "no stock and patched kernels of one source among: $(test_kernels | xargs)"
while read -r stock patched; do
	img=$scratch/$patched.img
	make_casefold_image "$img" 64M || exit 1
	guest_run "$patched" --disk "$img" -- patched write
	e2fsck -fn "$img" >"$scratch/fsck" 2>&1
	ok $? "[$patched] e2fsck -fn (1.47.0) finds the directories the patched kernel wrote clean" ||
		diag "$(head -n 20 "$scratch/fsck")"
	guest_run "$stock" --disk "$img" -- stock read
	# same_order LISTING WHICH: the guests' LISTING-patched and
	# LISTING-stock files, of the WHICH directory, are the same and not
	# empty.
	same_order() {
		local k
		for k in patched stock; do
			debugfs -R "cat /$1-$k" "$img" >"$scratch/$1-$k" 2>/dev/null
		done
		[ -s "$scratch/$1-patched" ] && cmp -s "$scratch/$1-patched" "$scratch/$1-stock"
		ok $? "[$stock, $patched] list the $2 directory in the same (hash) order"
	}
	same_order listing +F
	same_order listing-plain plain
done < <(ab_pairs)
done_testing
