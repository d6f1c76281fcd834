# Makefile for the emb suite: plain GNU make, no configure step.
#
#   make            build the library and programs into build/
#   make deps       install the Debian packages the build and tests need
#   make check      unit, program and example tests (SAN=1: sanitizers)
#   make demo       a real pipeline on the bundled data
#   make bench      benchmarks beside their anchors (never part of check)
#   make install    PREFIX, DESTDIR; uninstall, clean
#   make deps-list  what each target installs, one line each
#
# make only builds: a missing library stops it with a message naming it.
# make demo installs what is missing of the build's packages (BUILDDEBS;
# apt-get, through sudo when not root); make deps, which make check and
# the other test targets run first, those and the tests' (TESTDEBS), so
# that they work on a fresh Debian machine.  No target installs a
# service that starts: the ssh test's sshd comes from tests/deps-sshd.

include config.mk

B = build$(if $(SAN),-san)
ifneq ($(SAN),)
CFLAGS += $(SANFLAGS)
LDFLAGS += $(SANFLAGS)
endif

# Every object also depends on the headers it includes, as the compiler
# lists them (-MMD, in a .d file beside it; -MP so that a header removed
# does not stop the build), and on config.mk and this Makefile, which
# hold its flags.  gcc lists only the last source of a command that
# compiles several: the one whose headers matter goes last.
DEPFLAGS = -MMD -MP
MKFILES = Makefile config.mk

LIBSRC = $(sort $(wildcard lib/*/*.c))
LIBOBJ = $(LIBSRC:lib/%.c=$(B)/lib/%.o)
# The public header: emb.h and each floor's (tests/house/floors).
FLOORH = $(sort $(wildcard lib/*/emb-*.h))
LIBA = $(B)/libemb.a
PROGSRC = $(sort $(wildcard bin/emb-*.c))
PROGS = $(PROGSRC:bin/%.c=$(B)/%)
# The programs' shared code: every bin/*.c that is not a program.
UTILSRC = $(sort $(filter-out $(PROGSRC),$(wildcard bin/*.c)))
UTILOBJ = $(UTILSRC:bin/%.c=$(B)/bin/%.o)
UTILA = $(B)/libutil.a
# A program's own parts, in a folder of its name that only it links:
# bin/eval/ for emb-eval.
EVALSRC = $(sort $(wildcard bin/eval/*.c))
EVALOBJ = $(EVALSRC:bin/%.c=$(B)/bin/%.o)
MANS = $(sort $(wildcard man/*.1 man/*.5 man/*.7))
# Tools installed beside the programs: the SentEval converter (emb-eval(1)).
TOOLS = examples/scripts/senteval-prep.sh
# The bash completion of every program, made from their option tables.
COMPLETION = $(B)/emb.bash
UNITSRC = $(sort $(wildcard tests/unit/test_*.c))
UNITS = $(UNITSRC:tests/unit/%.c=$(B)/tests/%)
CHECKLIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
LIBSOK = $(B)/.libs-ok

# Debian packages the build and make demo need (and nothing else: no
# recommended package; tests/house/daemons checks that none of them or
# what they depend on is a service that starts).
BUILDDEBS = build-essential pkg-config zlib1g-dev libblis-dev liblapack-dev
# Those the tests need beside them: the tests' references and tools
# (libcheck, mandoc, numpy, scipy, gensim, fastText, GNU parallel, an ssh
# client, GNU time, less for an example), so that make check skips
# nothing.  The ssh test's sshd is not among them: tests/deps-sshd
# installs openssh-server with its service disabled and never started.
TESTDEBS = check mandoc gnuplot-nox python3 python3-numpy python3-scipy \
	python3-gensim fasttext parallel openssh-client time less

# The Slurm daemons and munge, for tests/cli/suite/slurm-array.sh, which
# starts a one-node cluster of its own: installed by make check alone, and
# with no service started or enabled (aptget_nostart).
SLURMDEBS = slurmctld slurmd slurm-client munge

# The targets that install missing packages before they build: the tests
# and the benchmarks everything (deps), the demo the build's (deps-build).
# Plain make, make install and the files themselves only build.
DEPGOALS = deps check bench fuzz fuzz-afl fuzz-programs fuzz-replay \
	programs-replay valgrind soak
NEEDDEPS = $(if $(filter $(DEPGOALS) fuzz-lf-% fuzz-afl-%,$(MAKECMDGOALS)),deps,$(if \
	$(filter demo,$(MAKECMDGOALS)),deps-build))

all: $(PROGS) $(B)/unhex $(COMPLETION)

# aptget PACKAGES[,APT-GET OPTIONS]: install those of the Debian packages
# that are missing.
aptget = command -v dpkg-query >/dev/null || { \
	echo "emb: no dpkg-query: install $(strip $(1)) yourself"; exit 0; }; \
	missing=; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
		    grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "emb: installing missing packages:$$missing"; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
		    $(2) $$missing >/dev/null || exit 1; \
	fi

deps-build:
	@$(call aptget,$(BUILDDEBS),--no-install-recommends)

deps: deps-build
	@$(call aptget,$(TESTDEBS))
	@sh tests/deps-sshd

deps-list:
	@echo "make, make install: nothing"
	@echo "make demo: $(BUILDDEBS)"
	@echo "make deps, check, bench: those and $(TESTDEBS)," \
	    "openssh-server (tests/deps-sshd: its service disabled, never started)"
	@echo "make check: also $(SLURMDEBS) (their services neither" \
	    "started nor enabled)"
	@echo "make fuzz, fuzz-afl, valgrind: those and $(FUZZDEBS)"

# aptget_nostart PACKAGES: aptget, with no service of the packages it
# installs started or enabled.  Their maintainer scripts start services
# through invoke-rc.d, which asks /usr/sbin/policy-rc.d first (exit 101:
# not now): one is made for the install when there is none, and removed
# after it; one already there is left as it is.  They enable services
# without asking it, so the units (and, without systemctl, the init
# scripts) of the packages just installed are disabled after the install.
aptget_nostart = command -v dpkg-query >/dev/null || { \
	echo "emb: no dpkg-query: install $(strip $(1)) yourself"; exit 0; }; \
	new=; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
		    grep -q 'ok installed' || new="$$new $$p"; \
	done; \
	[ -n "$$new" ] || exit 0; \
	sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	policy=/usr/sbin/policy-rc.d; made=; \
	if [ ! -e $$policy ]; then \
		printf '\#!/bin/sh\nexit 101\n' | $$sudo tee $$policy >/dev/null && \
		    $$sudo chmod 755 $$policy && made=1 || exit 1; \
	fi; \
	( $(call aptget,$(1)) ); st=$$?; \
	[ -z "$$made" ] || $$sudo rm -f $$policy; \
	units=$$(for p in $$new; do dpkg-query -L $$p 2>/dev/null | sed -n \
	    's,^/.*/systemd/system/\([^/@]*\.service\)$$,\1,p'; done | sort -u); \
	inits=$$(for p in $$new; do dpkg-query -L $$p 2>/dev/null | \
	    sed -n 's,^/etc/init\.d/\([^/]*\)$$,\1,p'; done | sort -u); \
	if command -v systemctl >/dev/null; then \
		[ -z "$$units" ] || \
		    $$sudo systemctl disable --quiet $$units || st=1; \
	elif command -v update-rc.d >/dev/null; then \
		for s in $$inits; do \
			$$sudo update-rc.d $$s disable >/dev/null || st=1; \
		done; \
	fi; \
	exit $$st

# The Slurm test's packages, after deps (one apt-get at a time).
slurmdeps: deps
	@$(call aptget_nostart,$(SLURMDEBS))

# Can the compiler find the libraries in config.mk?  One small program
# compiled and linked against them, once per build directory and flags,
# so that a missing one is named at the start and not deep in the build.
$(LIBSOK): $(MKFILES) | $(NEEDDEPS)
	@mkdir -p $(@D)
	@printf '%s\n' '#include <blis.h>' '#include <zlib.h>' \
	    'void dgeqp3_(void);' 'int main(void) { bli_init();' \
	    '(void)zlibVersion(); dgeqp3_(); return 0; }' >$(B)/.libs-probe.c
	@$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $(B)/.libs-probe \
	    $(B)/.libs-probe.c $(LDLIBS) 2>$(B)/.libs-probe.err || { \
		sed 's/^/    /' $(B)/.libs-probe.err | head -5 >&2; \
		echo "emb: cannot build against $(LDLIBS): a library or" \
		    "its headers are missing; make deps installs them" \
		    "on Debian" >&2; exit 1; }
	@rm -f $(B)/.libs-probe $(B)/.libs-probe.c $(B)/.libs-probe.err
	@touch $@

$(B)/lib/%.o: lib/%.c $(MKFILES) | $(LIBSOK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -fPIC -c -o $@ $<

$(LIBA): $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(B)/bin/%.o: bin/%.c $(MKFILES) | $(LIBSOK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(UTILA): $(UTILOBJ)
	rm -f $@
	ar rcs $@ $(UTILOBJ)

$(B)/emb-%: $(B)/bin/emb-%.o $(UTILA) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(UTILA) $(LIBA) $(LDLIBS)

$(B)/emb-eval: $(EVALOBJ)

# bin/complete.bash, then what each program says of its options.
$(COMPLETION): bin/complete.bash $(PROGS)
	{ cat bin/complete.bash && for p in $(PROGS); do \
		$$p --bash-completion || exit 1; done && \
	    echo "complete -F _emb $(notdir $(PROGS))"; } >$@.tmp
	mv $@.tmp $@

$(B)/tests/test_%: tests/unit/test_%.c $(LIBA) $(MKFILES) | $(LIBSOK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) \
	    -o $@ $< $(LIBA) $(CHECKLIBS) $(LDLIBS)

$(B)/unhex: tests/unhex.c $(MKFILES) | $(NEEDDEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $<

-include $(LIBOBJ:.o=.d) $(UTILOBJ:.o=.d) $(PROGSRC:bin/%.c=$(B)/bin/%.d) \
	$(EVALOBJ:.o=.d) $(UNITS:=.d) $(B)/unhex.d

# Every part runs even when one fails, and the end says what failed and
# what was skipped and why (nothing, on a machine make deps set up).
check: check-start deps slurmdeps all $(UNITS)
	@rm -f $(B)/.skipped $(B)/.failed
	@$(STAGE) begin "unit tests"
	@fail=0; for t in $(UNITS); do $$t || fail=1; done; \
	[ $$fail = 0 ] || echo "unit tests" >>$(B)/.failed
	@$(STAGE) end "unit tests"
	@$(STAGE) begin "program tests"
	@EMB_SKIPLOG=$(B)/.skipped sh tests/cli/run $(B) || \
	    echo "program tests" >>$(B)/.failed
	@$(STAGE) end "program tests"
	@$(STAGE) begin "man pages"
	@sh tests/manlint $(MANS) || echo "man pages" >>$(B)/.failed
	@$(STAGE) end "man pages"
	@$(STAGE) begin "house rules: file sizes, threads, Fortran prototypes"
	@sh tests/house/rules || echo "house rules" >>$(B)/.failed
	@$(STAGE) end "house rules: file sizes, threads, Fortran prototypes"
	@$(STAGE) begin "the library's floors: includes and symbols only downward"
	@sh tests/house/floors $(B) || echo "floors" >>$(B)/.failed
	@$(STAGE) end "the library's floors: includes and symbols only downward"
	@$(STAGE) begin "make demo's packages: no network daemon"
	@sh tests/house/daemons || echo "demo's packages" >>$(B)/.failed
	@$(STAGE) end "make demo's packages: no network daemon"
	@$(STAGE) begin "the examples of the man pages, README.md and parallel.md, as printed"
	@$(PYTHON) tests/docs/run $(B) $(MANS) README.md examples/parallel.md || \
	    echo "man-page, README and parallel.md examples" >>$(B)/.failed
	@$(STAGE) end "the examples of the man pages, README.md and parallel.md, as printed"
	@$(STAGE) begin "make demo's pipeline"
	@sh examples/demo $(B) >/dev/null && echo "demo: ran" || \
	    echo "demo" >>$(B)/.failed
	@$(STAGE) end "make demo's pipeline"
	@$(STAGE) begin "make install into a temporary DESTDIR"
	@EMB_LINKFLAGS="$(if $(SAN),$(SANFLAGS))" sh tests/install $(MAKE) \
	    SAN=$(SAN) || echo "install" >>$(B)/.failed
	@$(STAGE) end "make install into a temporary DESTDIR"
	@$(STAGE) begin "examples"
	@sh examples/run $(B) || echo "examples" >>$(B)/.failed
	@$(STAGE) end "examples"
	@$(STAGE) table
	@n=0; [ -f $(B)/.skipped ] && n=$$(wc -l <$(B)/.skipped); \
	echo "== make check: $$n tests skipped"; \
	[ $$n = 0 ] || sed 's/^/    /' $(B)/.skipped; \
	if [ -f $(B)/.failed ]; then \
		echo "== make check FAILED: $$(tr '\n' ',' <$(B)/.failed | \
		    sed 's/,$$//; s/,/, /g')"; exit 1; \
	fi; echo "== make check: passed"

# The clock of make check's stages (tests/stage), started before the
# build and the packages; the end of make check prints what each took.
STAGE = sh tests/stage $(B)
check-start:
	@$(STAGE) start

demo: deps-build all
	@sh examples/demo $(B)

bench: deps all
	@sh tests/bench/run $(B)

# What make install puts where; make uninstall removes the same: the
# programs, the tools (TOOLS, in SHAREDIR), the man pages (and emb(1), a
# link to the overview emb(7), so that man emb, which looks in section 1
# before 5, opens the overview and not the stream's emb(5)), the bash
# completion (one copy under each program's name in COMPDIR, where
# bash-completion looks it up), the library, its header and emb.pc.
# libemb is a static library: what it links against is needed on every
# link of a program using it, so it is in Libs and Requires (zlib has a
# .pc file, BLIS on Debian none), not in their .private forms.  A static
# link (pkg-config --static) needs, besides, what those libraries' own
# archives need, in Libs.private: BLAS again after LAPACK (-lblis), the
# Fortran runtime LAPACK was built with (libgfortran and libquadmath:
# libgfortran-12-dev on Debian 12) and BLIS's OpenMP (libgomp).
STATICLIBS = -lblis -lgfortran -lquadmath -lgomp -lm -lpthread
PCDIR = $(LIBDIR)/pkgconfig
pcvar = $(patsubst $(PREFIX)%,$${prefix}%,$(1))

# emb.pc is written at each install, for the PREFIX of that install.
install: all
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(call pcvar,$(LIBDIR))' \
	    'includedir=$(call pcvar,$(INCDIR))' '' 'Name: emb' \
	    'Description: word embeddings in Unix pipelines (libemb)' \
	    'Version: $(VERSION)' \
	    'Requires: zlib' 'Cflags: -I$${includedir}/emb' \
	    'Libs: -L$${libdir} -lemb $(filter-out -lz,$(LDLIBS))' \
	    'Libs.private: $(STATICLIBS)' >$(B)/emb.pc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(INCDIR) $(DESTDIR)$(PCDIR) $(DESTDIR)$(COMPDIR) \
	    $(DESTDIR)$(SHAREDIR)
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(TOOLS) $(DESTDIR)$(SHAREDIR)/
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/
	for h in lib/emb.h $(FLOORH); do d=$${h#lib/}; d=$${d%/*}; \
		[ "$$d" = emb.h ] && d=; \
		install -d $(DESTDIR)$(INCDIR)/emb/$$d && \
		install -m 644 $$h $(DESTDIR)$(INCDIR)/emb/$$d || exit 1; done
	install -m 644 $(B)/emb.pc $(DESTDIR)$(PCDIR)/
	for m in $(MANS); do s=$${m##*.}; \
		install -d $(DESTDIR)$(MANDIR)/man$$s && \
		install -m 644 $$m $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; done
	printf '%s\n' '.so man7/emb.7' >$(B)/emb.1
	install -m 644 $(B)/emb.1 $(DESTDIR)$(MANDIR)/man1/
	for p in $(notdir $(PROGS)); do install -m 644 $(COMPLETION) \
	    $(DESTDIR)$(COMPDIR)/$$p || exit 1; done

uninstall:
	for p in $(PROGS); do rm -f $(DESTDIR)$(BINDIR)/$${p##*/} \
	    $(DESTDIR)$(COMPDIR)/$${p##*/}; done
	for t in $(TOOLS); do rm -f $(DESTDIR)$(SHAREDIR)/$${t##*/}; done
	for m in $(MANS); do \
		s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	rm -f $(DESTDIR)$(MANDIR)/man1/emb.1
	rm -f $(DESTDIR)$(LIBDIR)/libemb.a $(DESTDIR)$(PCDIR)/emb.pc
	for h in lib/emb.h $(FLOORH); do \
		rm -f $(DESTDIR)$(INCDIR)/emb/$${h#lib/}; done
	for h in $(FLOORH); do d=$${h#lib/}; \
		rmdir $(DESTDIR)$(INCDIR)/emb/$${d%/*} 2>/dev/null; done; \
	rmdir $(DESTDIR)$(INCDIR)/emb 2>/dev/null; :

clean:
	rm -rf build build-san

.PHONY: all deps deps-build deps-list slurmdeps check check-start demo \
	bench install uninstall clean
.SECONDARY:

# ---- fuzzing, valgrind and the soak run (see tests/fuzz/README.md) ----
#
#   make fuzz        each harness under libFuzzer for FUZZTIME seconds
#                    (CI: make -j2 fuzz FUZZTIME=60)
#   make fuzz-afl    each harness under AFL++ for FUZZTIME seconds
#   make valgrind    the program tests with every program run by valgrind
#   make soak        ten million records through the pipelines, counted
#
# make check also replays the seed corpora and the crash fixtures through
# the harnesses built with $(CC) (with SAN=1, sanitized), so that a fixed
# crash stays fixed.  Harnesses: tests/fuzz/fuzz_NAME.c; seeds made by
# tests/fuzz/seeds; a dictionary tests/fuzz/NAME.dict is used if present.

FUZZTIME = 10
FUZZCC = clang
AFLCC = afl-clang-fast
FUZZBUF = -DEMB_STREAM_BUFSZ=100 -DEMB_WFILE_INSZ=64 -DEMB_WFILE_BUFSZ=256
FZ = build/fuzz
FUZZSTAMP = build/.fuzzdeps-ok
FUZZDEBS = clang libclang-rt-14-dev afl++ valgrind
FUZZSRC = $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZT = $(FUZZSRC:tests/fuzz/fuzz_%.c=%)
FUZZCFLAGS = -O1 -g -std=c11 $(CPPFLAGS) $(FUZZBUF) \
	-fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
FUZZOPTS = -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
AFLENV = AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 \
	AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
REPLAY = $(FUZZT:%=$(B)/replay/fuzz_%)

check: fuzz-replay programs-replay

fuzz-replay: all $(REPLAY)
	@$(STAGE) begin "fuzz replay (seeds and crash fixtures)"
	@sh tests/fuzz/seeds $(B) $(B)/replay/seeds
	@for t in $(FUZZT); do \
		$(B)/replay/fuzz_$$t $(B)/replay/seeds/$$t || \
		    { echo "fuzz replay: $$t failed"; exit 1; }; \
	done; echo "fuzz replay: $(words $(FUZZT)) harnesses passed"
	@$(STAGE) end "fuzz replay (seeds and crash fixtures)"

$(B)/replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c $(LIBA) $(MKFILES)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ \
	    tests/fuzz/driver.c $< $(LIBA) $(LDLIBS)

# The packages the fuzzers and valgrind need, installed as the build's are.
$(FUZZSTAMP): | $(NEEDDEPS)
	@$(call aptget,$(FUZZDEBS))
	@mkdir -p $(@D) && touch $@

$(FZ)/lf/lib/%.o: lib/%.c $(MKFILES) | $(FUZZSTAMP)
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZCFLAGS) $(DEPFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FZ)/lf/fuzz_%: tests/fuzz/fuzz_%.c $(LIBSRC:lib/%.c=$(FZ)/lf/lib/%.o) \
    $(MKFILES)
	$(FUZZCC) $(FUZZCFLAGS) $(DEPFLAGS) -fsanitize=fuzzer -o $@ \
	    $(filter %.c %.o,$^) $(LDLIBS)

$(FZ)/afl/lib/%.o: lib/%.c $(MKFILES) | $(FUZZSTAMP)
	@mkdir -p $(@D)
	AFL_QUIET=1 $(AFLCC) $(FUZZCFLAGS) $(DEPFLAGS) -c -o $@ $<

$(FZ)/afl/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/driver.c \
    $(LIBSRC:lib/%.c=$(FZ)/afl/lib/%.o) $(MKFILES)
	AFL_QUIET=1 $(AFLCC) $(FUZZCFLAGS) $(DEPFLAGS) -o $@ \
	    tests/fuzz/driver.c $< $(filter %.o,$^) $(LDLIBS)

fuzz-seeds: all
	@sh tests/fuzz/seeds $(B) $(FZ)/seeds

fuzz: $(FUZZT:%=fuzz-lf-%)
	@echo "fuzz: $(words $(FUZZT)) targets, $(FUZZTIME) s each, no crash"

# The programs themselves on mutated inputs (tests/fuzz/programs): run
# for FUZZTIME seconds; a finding is kept in tests/fuzz/programs.d, and
# make check replays every one kept.
# Debian's python3 (with numpy, to load an .npy) before any other on PATH.
PYTHON = $(firstword $(wildcard /usr/bin/python3) python3)

fuzz-programs: all
	@EMB_SAN=$(SAN) $(PYTHON) tests/fuzz/programs $(B) run $(FUZZTIME)

programs-replay: all
	@$(STAGE) begin "programs on hostile input (replay)"
	@EMB_SAN=$(SAN) $(PYTHON) tests/fuzz/programs $(B) replay
	@$(STAGE) end "programs on hostile input (replay)"

fuzz-afl: $(FUZZT:%=fuzz-afl-%)
	@echo "fuzz-afl: $(words $(FUZZT)) targets, $(FUZZTIME) s each, no crash"

fuzz-lf-%: $(FZ)/lf/fuzz_% fuzz-seeds
	@sh tests/fuzz/fuzzrun libfuzzer $* $(FUZZTIME) $(FZ) $< $(FUZZOPTS)

fuzz-afl-%: $(FZ)/afl/fuzz_% fuzz-seeds
	@$(AFLENV) sh tests/fuzz/fuzzrun afl $* $(FUZZTIME) $(FZ) $<

valgrind: all $(FUZZSTAMP)
	@sh tests/fuzz/valgrind $(B)

soak: all
	@sh tests/fuzz/soak $(B)

-include $(REPLAY:=.d) $(LIBSRC:lib/%.c=$(FZ)/lf/lib/%.d) \
	$(LIBSRC:lib/%.c=$(FZ)/afl/lib/%.d) $(FUZZT:%=$(FZ)/lf/fuzz_%.d) \
	$(FUZZT:%=$(FZ)/afl/fuzz_%.d)

.PHONY: fuzz fuzz-afl fuzz-replay fuzz-seeds fuzz-programs programs-replay \
	valgrind soak
# ---- end of fuzzing, valgrind and the soak run ----
