# Makefile for the emb suite: plain GNU make, no configure step.
#
#   make            build the library and programs into build/
#   make check      unit, program and example tests (SAN=1: sanitizers)
#   make demo       a real pipeline on the bundled data
#   make bench      benchmarks beside their anchors (never part of check)
#   make install    PREFIX, DESTDIR; uninstall, clean
#
# Missing build dependencies (Debian packages) are installed first.

include config.mk

B = build$(if $(SAN),-san)
ifneq ($(SAN),)
CFLAGS += $(SANFLAGS)
LDFLAGS += $(SANFLAGS)
endif

LIBSRC = $(sort $(wildcard lib/*.c))
LIBOBJ = $(LIBSRC:lib/%.c=$(B)/lib/%.o)
LIBA = $(B)/libemb.a
UTILOBJ = $(B)/bin/util.o
PROGSRC = $(sort $(wildcard bin/emb-*.c))
PROGS = $(PROGSRC:bin/%.c=$(B)/%)
MANS = $(sort $(wildcard man/*.1 man/*.5))
UNITSRC = $(sort $(wildcard tests/unit/test_*.c))
UNITS = $(UNITSRC:tests/unit/%.c=$(B)/tests/%)
CHECKLIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
DEPSTAMP = build/.deps-ok

# Debian packages the build and the tests need.
DEBS = build-essential pkg-config zlib1g-dev libblis-dev liblapack-dev check \
	mandoc

all: $(DEPSTAMP) $(PROGS) $(B)/unhex

$(DEPSTAMP):
	@missing=; for p in $(DEBS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | \
		    grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "emb: installing missing packages:$$missing"; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq \
		    $$missing >/dev/null || exit 1; \
	fi
	@mkdir -p build && touch $@

$(B)/lib/%.o: lib/%.c lib/emb.h lib/int.h | $(DEPSTAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<

$(LIBA): $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

$(B)/bin/%.o: bin/%.c bin/util.h lib/emb.h | $(DEPSTAMP)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/emb-%: $(B)/bin/emb-%.o $(UTILOBJ) $(LIBA)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/tests/test_%: tests/unit/test_%.c tests/unit/check_main.h $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) \
	    $(CHECKLIBS) $(LDLIBS)

$(B)/unhex: tests/unhex.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

check: all $(UNITS)
	@echo "== unit tests"
	@fail=0; for t in $(UNITS); do $$t || fail=1; done; \
	[ $$fail = 0 ] || { echo "unit tests failed"; exit 1; }
	@echo "== program tests"
	@sh tests/cli/run $(B)
	@echo "== man pages"
	@sh tests/manlint $(MANS)
	@echo "== examples"
	@sh examples/run $(B)

demo: all
	@sh examples/demo $(B)

bench: all
	@sh tests/bench/run $(B)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5
	cp -f $(PROGS) $(DESTDIR)$(BINDIR)/
	for m in $(MANS); do \
		s=$${m##*.}; cp -f $$m $(DESTDIR)$(MANDIR)/man$$s/; done

uninstall:
	for p in $(PROGS); do rm -f $(DESTDIR)$(BINDIR)/$${p##*/}; done
	for m in $(MANS); do \
		s=$${m##*.}; rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done

clean:
	rm -rf build build-san

.PHONY: all check demo bench install uninstall clean
.SECONDARY:
