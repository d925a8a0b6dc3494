// test-window APP_ID: a plain GTK window of a known app, for the desktop-context tests. The app
// id is the program name, which GTK gives the window as its Wayland app id and its X11
// WM_CLASS. Says "shown" once the window is mapped; each SIGUSR1 asks the window manager to
// make it fullscreen, or not, as a video player does; SIGTERM ends it.
#include <glib-unix.h>
#include <gtk/gtk.h>
#include <stdio.h>

static gboolean toggle_fullscreen(gpointer window) {
    static gboolean fullscreen = FALSE;
    fullscreen = !fullscreen;
    if (fullscreen) gtk_window_fullscreen(GTK_WINDOW(window));
    else gtk_window_unfullscreen(GTK_WINDOW(window));
    return G_SOURCE_CONTINUE;
}

static void mapped(GtkWidget *window, gpointer data) {
    (void)window;
    (void)data;
    printf("shown\n");
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test-window APP_ID\n");
        return 2;
    }
    g_set_prgname(argv[1]);
    gtk_init(&argc, &argv);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(window), argv[1]);
    gtk_window_set_default_size(GTK_WINDOW(window), 400, 300);
    g_signal_connect(window, "map-event", G_CALLBACK(mapped), NULL);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    g_unix_signal_add(SIGUSR1, toggle_fullscreen, window);
    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}
