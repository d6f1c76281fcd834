# What a stream only declares costs nothing: a header of the largest
# dimension (2^20) and a group declaring 100000 members, cut short, is
# reported as truncated within 300 MB of address space, in every mode and
# with threads (no batch of results or of members is reserved for sizes
# not read).
# The address space is limited where the programs start under the limit
# (sanitizer and valgrind builds reserve far more: there, no limit).
lim=300000
sh -c '(ulimit -v $1 && emb-cat --version); exit $?' sh $lim \
    >/dev/null 2>&1 || lim=unlimited
printf '\211EMB\r\n\032\n\001\000\000\000\000\000\020\000G\001\000\000\000g\240\206\001\000' >big.emb
for o in "-q" "-q -j 2" "-q -p -c 0.5" "-q -i"; do
	(ulimit -v $lim; emb-ose $o big.emb >/dev/null)
	echo "emb-ose $o: exit $?"
	(ulimit -v $lim; emb-bov -q big.emb >/dev/null)
done 2>&1 | sort -u
