# bash completion for the emb programs.
#
# The options of each program are not written here: make appends what
# each program prints for --bash-completion, made from the same table as
# its getopt_long options and its -h text (bin/opt.c):
#   _emb_opts[PROG]       every option, short and long
#   _emb_fileopts[PROG]   the options whose argument is a file
#   _emb_argopts[PROG]    the options with another argument
#   _emb_listopts[PROG]   those whose argument is a comma-separated list
#   _emb_words[PROG OPT]  the words such an argument can be (in a list:
#                         each of its words, after the last comma)
# An operand is a file name.

declare -A _emb_opts _emb_fileopts _emb_argopts _emb_listopts _emb_words

# _emb_value PROG OPT VALUE: complete VALUE, the argument of OPT, from its
# words; in a list, the word after the last comma, what is before kept.
_emb_value()
{
	local head= val=$3

	if _emb_has "${_emb_listopts[$1]}" "$2" && [[ $val == *,* ]]; then
		head=${val%,*},
		val=${val##*,}
	fi
	COMPREPLY=($(compgen -W "${_emb_words[$1 $2]}" -- "$val"))
	COMPREPLY=("${COMPREPLY[@]/#/$head}")
}

# _emb_has LIST WORD: whether WORD is one of the blank-separated LIST.
_emb_has()
{
	case " $1 " in
	*" $2 "*) return 0 ;;
	esac
	return 1
}

_emb()
{
	local prog=${1##*/} cur=${COMP_WORDS[COMP_CWORD]} prev=
	local opt val

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	# Where '=' breaks words, --name=value comes as --name, =, value.
	if [ "$cur" = "=" ]; then
		cur=
	elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -gt 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	# --name=value: the value of that option.
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		val=${cur#*=}
		if [ -n "${_emb_words[$prog $opt]}" ]; then
			_emb_value "$prog" "$opt" "$val"
		elif _emb_has "${_emb_fileopts[$prog]}" "$opt"; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$val"))
		fi
		COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		return 0
	fi
	# The word after an option that takes an argument.
	if [ -n "$prev" ] && [ -n "${_emb_words[$prog $prev]}" ]; then
		_emb_value "$prog" "$prev" "$cur"
		return 0
	fi
	if [ -n "$prev" ] && _emb_has "${_emb_fileopts[$prog]}" "$prev"; then
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
	fi
	if [ -n "$prev" ] && _emb_has "${_emb_argopts[$prog]}" "$prev"; then
		return 0
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${_emb_opts[$prog]}" -- "$cur"))
		return 0
	fi
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -f -- "$cur"))
}
