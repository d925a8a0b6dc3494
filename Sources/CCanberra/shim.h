// libcanberra's header lives in the default include path; no pkg-config, because its
// -D_REENTRANT flag makes SwiftPM warn on every build.
#include <canberra.h>
