# Chime: `make run` and `make test` install what is missing, build, and go.

PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug

# Debian packages the build, the daemon and the tests need.
APT_PACKAGES = pkg-config libdbus-1-dev libglib2.0-dev libglib2.0-bin dbus dbus-bin \
               libnotify-bin libcanberra-dev libcanberra-pulse sound-theme-freedesktop \
               pulseaudio pulseaudio-utils sox libsox-fmt-base libsqlite3-dev \
               libgtk-3-dev libgtk-layer-shell-dev libwayland-dev libxcb1-dev libxkbcommon-dev \
               libcairo2-dev libpango1.0-dev libgdk-pixbuf-2.0-dev libxcb-randr0-dev \
               xvfb xdotool openbox x11-xserver-utils xsettingsd xwayland imagemagick sway grim bsdutils \
               python3-gi gir1.2-notify-0.7 adwaita-icon-theme xdg-desktop-portal shared-mime-info ffmpeg ffmpegthumbnailer bubblewrap weston \
               scdoc man-db gettext locales fonts-nanum

# SwiftPM reads the libraries' pkg-config files itself and warns about every `-pthread` in them,
# a flag glibc no longer needs: it reads copies without it, made here, before the system's.
PC_DIR = $(CURDIR)/.build/pkgconfig
export PKG_CONFIG_PATH := $(PC_DIR)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

# Only for `make bench`: the daemon users leave, and a display for it.
BENCH_PACKAGES = dunst mako-notifier

.PHONY: all deps pkgconfig build run test test-release bench bench-quick bench-build hot-functions release install uninstall clean screenshots man \
        locale pot po-update \
        wayland-protocols

all: build

# Installs only the packages that are missing; as root, or through sudo when there is one.
deps:
	@missing=$$(for p in $(APT_PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "Installing missing packages:" $$missing; \
	    sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	    $$sudo apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@$(MAKE) --no-print-directory pkgconfig

pkgconfig:
	@mkdir -p $(PC_DIR); \
	for dir in $$(pkg-config --variable pc_path pkg-config | tr : ' '); do \
	    for pc in $$(grep -l -e '-pthread' $$dir/*.pc 2>/dev/null); do \
	        sed 's/ *-pthread//g' $$pc > $(PC_DIR)/$$(basename $$pc); done; done

build: deps
	$(SWIFT) build -c $(CONFIG)

# Runs chimed on the session bus, or on a private bus it starts and announces.
run: build locale
	@scripts/run-chimed "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)"

# The man pages, from their scdoc sources in docs/man (the date is the last commit's, so a
# build made again is the same).
MAN_PAGES = chimed.1 chimectl.1 chime.conf.5 chime-hints.7
MAN_DIR = .build/man
man:
	@mkdir -p $(MAN_DIR)
	@for page in $(MAN_PAGES); do \
	    SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || date +%s) scdoc < docs/man/$$page.scd > $(MAN_DIR)/$$page || exit 1; done

# Chime's words in other languages: po/LANG.po compiled into .build/locale, where the programs
# of the build tree find them (installed: PREFIX/share/locale). `make pot` gathers the messages
# of the sources into po/chime.pot; `make po-update` brings each language's file up to it.
LANGUAGES = $(basename $(notdir $(wildcard po/*.po)))
LOCALE_DIR = .build/locale
locale:
	@for lang in $(LANGUAGES); do mkdir -p $(LOCALE_DIR)/$$lang/LC_MESSAGES && \
	    msgfmt --check -o $(LOCALE_DIR)/$$lang/LC_MESSAGES/chime.mo po/$$lang.po || exit 1; done

pot:
	scripts/extract-messages po/chime.pot

po-update: pot
	@for lang in $(LANGUAGES); do msgmerge --quiet --update --backup=none po/$$lang.po po/chime.pot; done

# Every test: core unit tests, and bus tests with real clients on private buses.
test: deps man locale
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The same tests against the release build, which is what `make install` installs: it is linked
# differently (bench/hot-functions.txt, packed relocations), and `make test` only builds debug.
test-release: deps
	$(SWIFT) build -c release
	$(SWIFT) build --build-tests
	CHIME_BIN_DIR="$$($(SWIFT) build -c release --show-bin-path)" $(SWIFT) test --skip-build

# The README's pictures of banners, drawn on a private Xvfb.
screenshots: build
	scripts/make-screenshots "$$($(SWIFT) build --show-bin-path)"

# Benchmarks (release build): chimed against bench/reference-server.c and dunst, as ratios.
# `make bench` writes BENCHMARKS.md; `make bench-quick` is a smoke check of the harness.
bench: deps
	@$(MAKE) --no-print-directory APT_PACKAGES="$(BENCH_PACKAGES)" deps
	@$(MAKE) --no-print-directory bench-build
	"$$($(SWIFT) build -c release --show-bin-path)/chime-bench" "$$($(SWIFT) build -c release --show-bin-path)" --write BENCHMARKS.md

bench-quick: deps bench-build
	"$$($(SWIFT) build -c release --show-bin-path)/chime-bench" "$$($(SWIFT) build -c release --show-bin-path)" --quick

# From clean: an incremental release build (cross-module optimisation) once kept a stale class
# layout in chimed's main and corrupted its heap.
bench-build:
	rm -rf "$$($(SWIFT) build -c release --show-bin-path)"
	$(SWIFT) build -c release --product chimed
	$(SWIFT) build -c release --product chime-presenter
	$(SWIFT) build -c release --product chime-banners
	$(SWIFT) build -c release --product chime-sound
	$(SWIFT) build -c release --product chime-bench
	bin=$$($(SWIFT) build -c release --show-bin-path); \
	cc -O2 -pthread -o $$bin/reference-server bench/reference-server.c $$(pkg-config --cflags --libs dbus-1) && \
	cc -O2 -o $$bin/screen-watch bench/screen-watch.c $$(pkg-config --cflags --libs wayland-client) && \
	cp bench/dunstrc $$bin/dunstrc

# The functions chimed, chime-presenter and chime-banners run, laid out together by the linker (see Package.swift);
# remade from profiles of the quick benchmark and the display phase. Worth redoing after large
# changes; a stale list only costs memory.
hot-functions: deps
	@$(MAKE) --no-print-directory APT_PACKAGES="valgrind" deps
	@[ -f bench/hot-functions.txt ] || : > bench/hot-functions.txt  # the release links read them
	@[ -f bench/presenter-hot-functions.txt ] || : > bench/presenter-hot-functions.txt
	@[ -f bench/banners-hot-functions.txt ] || : > bench/banners-hot-functions.txt
	@$(MAKE) --no-print-directory bench-build
	scripts/make-hot-functions "$$($(SWIFT) build -c release --show-bin-path)"

# Where systemd looks for the user unit: PREFIX/lib/systemd/user for a system prefix, but
# ~/.local/share/systemd/user for a home one (it never reads ~/.local/lib).
UNIT_DIR ?= $(if $(filter $(HOME)/%,$(PREFIX)),$(PREFIX)/share/systemd/user,$(PREFIX)/lib/systemd/user)

# The release build of what Chime ships, from clean (see bench-build), unless one is there that
# is newer than every source.
release:
	@bin=$$($(SWIFT) build -c release --show-bin-path); \
	if [ -x "$$bin/chimed" ] && [ -x "$$bin/chimectl" ] && [ -x "$$bin/chime-presenter" ] && [ -x "$$bin/chime-banners" ] && \
	   [ -x "$$bin/chime-sound" ] && \
	   [ -z "$$(find Sources Package.swift -newer "$$bin/chimed" -print -quit)" ]; then \
	    echo "release build is up to date in $$bin"; \
	else \
	    rm -rf "$$bin" && $(SWIFT) build -c release --product chimed && \
	    $(SWIFT) build -c release --product chimectl && $(SWIFT) build -c release --product chime-presenter && \
	    $(SWIFT) build -c release --product chime-banners && $(SWIFT) build -c release --product chime-sound; \
	fi

# Binaries, D-Bus activation files, the systemd user unit and the interface XML. Installs the
# release build; under sudo, what is missing is built as the user who ran sudo, so `.build` never
# holds files of root's.
install: man locale
	@if [ "$$(id -u)" = 0 ] && [ -n "$$SUDO_USER" ]; then \
	    sudo -u "$$SUDO_USER" env PATH="$$PATH" $(MAKE) --no-print-directory release; \
	else \
	    $(MAKE) --no-print-directory release; \
	fi
	bin=.build/release; \
	install -Dm755 $$bin/chimed $(DESTDIR)$(PREFIX)/bin/chimed; \
	install -Dm755 $$bin/chimectl $(DESTDIR)$(PREFIX)/bin/chimectl; \
	install -Dm755 $$bin/chime-presenter $(DESTDIR)$(PREFIX)/bin/chime-presenter; \
	install -Dm755 $$bin/chime-banners $(DESTDIR)$(PREFIX)/bin/chime-banners; \
	install -Dm755 $$bin/chime-sound $(DESTDIR)$(PREFIX)/bin/chime-sound
	install -d $(DESTDIR)$(PREFIX)/share/dbus-1/services $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces \
	           $(DESTDIR)$(UNIT_DIR)
	for f in org.freedesktop.Notifications.service dev.chime.Chime1.service org.freedesktop.impl.portal.desktop.chime.service; do \
	    sed 's|@BINDIR@|$(PREFIX)/bin|' dbus/$$f > $(DESTDIR)$(PREFIX)/share/dbus-1/services/$$f; done
	sed 's|@BINDIR@|$(PREFIX)/bin|' dbus/chimed.service > $(DESTDIR)$(UNIT_DIR)/chimed.service
	install -m644 dbus/*.xml $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/
	install -Dm644 dbus/chime.portal $(DESTDIR)$(PREFIX)/share/xdg-desktop-portal/portals/chime.portal
	install -Dm644 dbus/chime-portals.conf $(DESTDIR)$(PREFIX)/share/doc/chime/chime-portals.conf
	install -Dm644 completions/chimectl.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/chimectl
	install -Dm644 completions/_chimectl $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_chimectl
	install -Dm644 completions/chimectl.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/chimectl.fish
	install -Dm644 sounds/chime/index.theme $(DESTDIR)$(PREFIX)/share/sounds/chime/index.theme
	install -Dm644 -t $(DESTDIR)$(PREFIX)/share/sounds/chime/stereo sounds/chime/stereo/*.oga
	for lang in $(LANGUAGES); do \
	    install -Dm644 $(LOCALE_DIR)/$$lang/LC_MESSAGES/chime.mo $(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/chime.mo; done
	for page in $(MAN_PAGES); do \
	    install -Dm644 $(MAN_DIR)/$$page $(DESTDIR)$(PREFIX)/share/man/man$${page##*.}/$$page; done
	install -Dm644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/chime/LICENSE
	install -Dm644 NEWS.md $(DESTDIR)$(PREFIX)/share/doc/chime/NEWS.md
	install -Dm644 chime.conf.example $(DESTDIR)$(PREFIX)/share/doc/chime/chime.conf.example

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/chimed $(DESTDIR)$(PREFIX)/bin/chimectl $(DESTDIR)$(PREFIX)/bin/chime-presenter \
	      $(DESTDIR)$(PREFIX)/bin/chime-banners $(DESTDIR)$(PREFIX)/bin/chime-sound \
	      $(DESTDIR)$(PREFIX)/share/dbus-1/services/org.freedesktop.Notifications.service \
	      $(DESTDIR)$(PREFIX)/share/dbus-1/services/dev.chime.Chime1.service \
	      $(DESTDIR)$(PREFIX)/share/dbus-1/services/org.freedesktop.impl.portal.desktop.chime.service \
	      $(DESTDIR)$(PREFIX)/share/xdg-desktop-portal/portals/chime.portal \
	      $(DESTDIR)$(PREFIX)/share/doc/chime/chime-portals.conf \
	      $(DESTDIR)$(PREFIX)/share/doc/chime/LICENSE $(DESTDIR)$(PREFIX)/share/doc/chime/NEWS.md \
	      $(DESTDIR)$(PREFIX)/share/doc/chime/chime.conf.example \
	      $(foreach lang,$(LANGUAGES),$(DESTDIR)$(PREFIX)/share/locale/$(lang)/LC_MESSAGES/chime.mo) \
	      $(foreach page,$(MAN_PAGES),$(DESTDIR)$(PREFIX)/share/man/man$(subst .,,$(suffix $(page)))/$(page)) \
	      $(DESTDIR)$(UNIT_DIR)/chimed.service \
	      $(addprefix $(DESTDIR)$(PREFIX)/share/dbus-1/interfaces/,$(notdir $(wildcard dbus/*.xml)))
	rm -rf $(DESTDIR)$(PREFIX)/share/sounds/chime
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/chimectl \
	      $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_chimectl \
	      $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/chimectl.fish

clean:
	$(SWIFT) package clean

# The Wayland protocols' C code, made again from their XML in Sources/CDesktop/protocols
# (kept in the repository: the build then needs no wayland-scanner).
wayland-protocols:
	@for target in Sources/CDesktop Sources/CBannerSurfaces; do (cd $$target && for xml in protocols/*.xml; do \
	    name=$$(basename $$xml .xml); \
	    wayland-scanner client-header $$xml include/$$name-client-protocol.h && \
	    wayland-scanner private-code $$xml $$name-protocol.c; \
	done) || exit 1; done
