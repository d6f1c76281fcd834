# make check prints at its end the seconds each stage took (tests/stage):
# the stages in the order they began, overlapping ones apart, the time
# before the first (the build, the packages) and the whole; every stage
# that the Makefile begins it also ends.
set -u
top=$TESTDATA/../..
stage() {
	sh "$top/tests/stage" b "$@"
}
stage start
stage begin "one"
stage begin "two"
stage end "one"
stage end "two"
stage begin "three"
stage table >table.txt
sed 's/^ *[0-9][0-9]*\.[0-9] s  /N s  /' table.txt
# The Makefile: each stage begun is ended, by the same name.
grep -o '$(STAGE) begin "[^"]*"' "$top/Makefile" | sed 's/.*begin //' |
    sort >begun
grep -o '$(STAGE) end "[^"]*"' "$top/Makefile" | sed 's/.*end //' |
    sort >ended
echo "the Makefile: $(wc -l <begun) stages"
cmp -s begun ended && echo "each ended" || diff begun ended
