#include <gio/gdesktopappinfo.h>
