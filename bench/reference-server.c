/* The benchmark's reference: owns org.freedesktop.Notifications and answers Notify with a
 * fresh id and nothing else; CloseNotification emits NotificationClosed. Its cost is the
 * bus's own cost, the limit any real server is measured against. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

static const char *PATH = "/org/freedesktop/Notifications";
static const char *IFACE = "org.freedesktop.Notifications";

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) { fprintf(stderr, "reference-server: %s\n", error.message); return 1; }
    if (dbus_bus_request_name(bus, "org.freedesktop.Notifications", DBUS_NAME_FLAG_DO_NOT_QUEUE, &error)
        != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
        fprintf(stderr, "reference-server: name taken\n");
        return 1;
    }
    dbus_uint32_t next = 0;
    while (dbus_connection_read_write_dispatch(bus, -1)) {
        DBusMessage *message;
        while ((message = dbus_connection_pop_message(bus))) {
            DBusMessage *reply = NULL;
            if (dbus_message_is_method_call(message, IFACE, "Notify")) {
                reply = dbus_message_new_method_return(message);
                ++next;
                dbus_message_append_args(reply, DBUS_TYPE_UINT32, &next, DBUS_TYPE_INVALID);
            } else if (dbus_message_is_method_call(message, IFACE, "CloseNotification")) {
                dbus_uint32_t id = 0, reason = 3;
                dbus_message_get_args(message, NULL, DBUS_TYPE_UINT32, &id, DBUS_TYPE_INVALID);
                reply = dbus_message_new_method_return(message);
                DBusMessage *closed = dbus_message_new_signal(PATH, IFACE, "NotificationClosed");
                dbus_message_append_args(closed, DBUS_TYPE_UINT32, &id, DBUS_TYPE_UINT32, &reason, DBUS_TYPE_INVALID);
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
                reply = closed;
            } else if (dbus_message_is_method_call(message, IFACE, "GetServerInformation")) {
                const char *name = "reference", *vendor = "chime-bench", *version = "1", *spec = "1.3";
                reply = dbus_message_new_method_return(message);
                dbus_message_append_args(reply, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &vendor,
                                         DBUS_TYPE_STRING, &version, DBUS_TYPE_STRING, &spec, DBUS_TYPE_INVALID);
            }
            if (reply) {
                dbus_connection_send(bus, reply, NULL);
                dbus_message_unref(reply);
            }
            dbus_message_unref(message);
        }
    }
    return 0;
}
