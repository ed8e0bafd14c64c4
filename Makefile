# Make-based builds, for OpenBench (which builds an engine with `make EXE=<name>` and reads
# the last line of `<name> bench`) and anyone who prefers make to cargo.
#
#   make EXE=nosce-dev         the release binary for this machine's CPU (target-cpu=native)
#   make portable EXE=nosce    a release binary for any CPU of this architecture
#   make bench EXE=nosce-dev   builds, then prints the bench (last line: N nodes M nps)
#
# No profile-guided optimisation. On Windows the binary gets .exe appended.

EXE ?= nosce
CARGO ?= cargo
ifeq ($(OS),Windows_NT)
    NAME := $(EXE:.exe=).exe
else
    NAME := $(EXE)
endif

.PHONY: default native portable bench

default: native

native:
	$(CARGO) rustc --release --bin nosce -- -C target-cpu=native --emit link=$(NAME)

portable:
	$(CARGO) rustc --release --bin nosce -- --emit link=$(NAME)

bench: native
	"$(abspath $(NAME))" bench
