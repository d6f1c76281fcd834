# What a stream only declares costs nothing: a header of the largest
# dimension (2^20) and a group declaring 100000 members, cut short, is
# reported as truncated within 300 MB of address space, in every mode and
# with threads (no batch of results or of members is reserved for sizes
# not read).
printf '\211EMB\r\n\032\n\001\000\000\000\000\000\020\000G\001\000\000\000g\240\206\001\000' >big.emb
for o in "-q" "-q -j 2" "-q -p -c 0.5" "-q -i"; do
	(ulimit -v 300000; emb-ose $o big.emb >/dev/null)
	echo "emb-ose $o: exit $?"
	(ulimit -v 300000; emb-bov -q big.emb >/dev/null)
done 2>&1 | sort -u
