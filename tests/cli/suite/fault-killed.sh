# An upstream that dies mid-stream: the next stage must report a truncated
# stream and exit 1, never take a short stream for a whole one.
# (cat-truncate cuts a stream at every byte; this is the real thing.)
#
# A real upstream killed by SIGKILL in a pipeline.  emb-cat -r gets more
# than one output block of text on a fifo that stays open, so it flushes
# exactly one block and waits for more input; tee copies what it wrote to a
# file.  A block is the whole records that fit in 1 MiB, so once the copy
# ends at a record boundary (16 + 28 n bytes here) less than one record
# short of 1 MiB, the block has passed and the upstream is killed.  The
# downstream must print those records, then fail.
awk 'BEGIN { for (i = 0; i < 50000; i++)
	printf "w%06d\t%d 0.5 -1 2\n", i, i }' >in.txt
mkfifo fifo
( sh -c 'echo $$ >up.pid; exec emb-cat -r' <fifo | tee mid.emb |
    emb-cat >out.txt 2>err.txt; echo $? >down.exit ) 2>/dev/null &
exec 3>fifo
cat in.txt >&3
i=0
while :; do
	sz=$(wc -c <mid.emb 2>/dev/null || echo 0)
	[ "$sz" -gt $((1048576 - 28)) ] && [ $(((sz - 16) % 28)) = 0 ] &&
	    break
	i=$((i + 1))
	if [ $i -gt 300 ]; then
		echo "upstream wrote $sz bytes, never a whole block"
		break
	fi
	sleep 0.1
done
kill -KILL "$(cat up.pid)"
exec 3>&-
wait
n=$(wc -l <out.txt)
echo "downstream: exit $(cat down.exit)"
[ "$(cat err.txt)" = "emb-cat: stdin: after record $n: truncated, no trailer" ] &&
    echo "downstream: names the last whole record"
head -n "$n" in.txt | cmp -s - out.txt && [ "$n" -gt 0 ] &&
    echo "downstream: printed every record before the cut"
[ "$n" -lt 50000 ] && echo "downstream: did not print more"
