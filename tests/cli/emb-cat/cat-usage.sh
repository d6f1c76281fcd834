# Usage errors exit 2 with the usage on stderr; -h and --help print it on
# stdout and exit 0, as does --version.
set -u
printf 'a\t1 2\n' | emb-cat -r >x.emb
for args in "-x" "-r -k" "-r -N f.npy" "-d 3" "-r -d 0" "-r -d 1048577" \
    "-r -d x" "x.emb x.emb" "--bogus"; do
	# shellcheck disable=SC2086
	emb-cat $args </dev/null >/dev/null 2>err
	echo "emb-cat $args: exit $? $(head -1 err | cut -c 1-40)"
done
for args in "-h" "--help"; do
	emb-cat $args >out 2>err
	echo "emb-cat $args: exit $? stdout: $(head -1 out | cut -c 1-40)"
done
emb-cat --version
emb-cat nosuchfile
echo "missing file: exit $?"
