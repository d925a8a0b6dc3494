// swift-tools-version:6.0
// Chime is free software under the MIT license (LICENSE).
import PackageDescription

// Strict settings declared once and applied to every Swift target below.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

// Release builds of the programs pack their relative relocations (RELR, glibc 2.36), whose table
// otherwise stays resident. Each linker setting here is kept for what BENCHMARKS.md measures.
let packedRelocations = LinkerSetting.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                                                  .when(configuration: .release))

// How the programs chimed starts link the runtimes, with lld (it finds what the static
// libraries need in any order): the Swift runtime linked in, and only the parts of the C++
// runtime it calls (link/ holds a libstdc++.so that names the static library), so no relocated
// copies of whole libraries stay resident; no symbol of the program exported, so libraries'
// symbol lookups do not search the program's first.
let programLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-static-stdlib", "-L\(Context.packageDirectory)/link", "-Xlinker", "--no-export-dynamic"]),
    packedRelocations,
]

let package = Package(
    name: "chime",
    products: [
        .executable(name: "chimed", targets: ["chimed"]),
        .executable(name: "chimectl", targets: ["chimectl"]),
        .executable(name: "chime-presenter", targets: ["chime-presenter"]),
        .executable(name: "chime-sound", targets: ["chime-sound"]),
    ],
    targets: [
        // System libraries: a module map and pkg-config, nothing else.
        .systemLibrary(name: "CDBus", path: "Sources/CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(name: "CCanberra", path: "Sources/CCanberra",
                       providers: [.apt(["libcanberra-dev", "libcanberra-pulse"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        // GTK 3 for the popups; gtk-layer-shell places them on wlroots compositors.
        .systemLibrary(name: "CGtk", path: "Sources/CGtk", pkgConfig: "gtk+-3.0",
                       providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]),
        // Banners drawn without GTK: cairo and pango onto X11 windows (xcb), images by GdkPixbuf.
        .systemLibrary(name: "CDraw", path: "Sources/CDraw", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libxcb1-dev", "libxcb-randr0-dev"])]),
        .systemLibrary(name: "CPixbuf", path: "Sources/CPixbuf", pkgConfig: "gdk-pixbuf-2.0",
                       providers: [.apt(["libgdk-pixbuf-2.0-dev"])]),
        // GIO's desktop files (an app's icon) and the desktop's handlers for links.
        .systemLibrary(name: "CGioUnix", path: "Sources/CGioUnix", pkgConfig: "gio-unix-2.0",
                       providers: [.apt(["libglib2.0-dev"])]),
        // The desktop's state: libwayland-client with the wlr-foreign-toplevel protocol's code
        // (wayland-scanner's output, `make wayland-protocols`), and libxcb for EWMH on X11.
        .target(name: "CDesktop", exclude: ["protocols"],
                linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xcb")]),
        // Banners on Wayland without GTK: wlr-layer-shell and xdg-activation's code (made as
        // CDesktop's is, `make wayland-protocols`).
        .target(name: "CBannerSurfaces", exclude: ["protocols"], linkerSettings: [.linkedLibrary("wayland-client")]),
        // The few things Swift cannot call: macros and variadic functions.
        .target(name: "CShims", dependencies: ["CDBus", "CGLib"]),

        // Pure model and policy: no C imports, time passed in as a value.
        .target(name: "ChimeCore"),
        // Small Swift wrappers over GLib: markup parsing, the main loop, timers, signals, the log.
        .target(name: "ChimeGLib", dependencies: ["ChimeCore", "CGLib", "CShims"]),
        // The config file (GKeyFile, GRegex for rules) and where Chime's folders are.
        .target(name: "ChimeConfig", dependencies: ["ChimeCore", "ChimeGLib"]),
        // The control interface's protocol: its names, and a notification's record (a{sv})
        // written and read side by side; what chimed and its clients share.
        .target(name: "ChimeControl", dependencies: ["ChimeCore"]),
        // libdbus on a GLib main loop; interfaces declared by the XML in dbus/.
        .target(name: "ChimeDBus", dependencies: ["ChimeCore", "ChimeGLib", "CDBus", "CGLib", "CShims"],
                plugins: ["EmbedInterfaces"]),
        // Sound through libcanberra, on a thread of its own, in chime-sound (never in chimed).
        .target(name: "ChimeSound", dependencies: ["ChimeCore", "CCanberra", "CGLib", "ChimeGLib"]),
        // The notification center's persistence: SQLite in WAL mode.
        .target(name: "ChimeStore", dependencies: ["ChimeCore", "CSQLite"]),
        // Banners drawn with cairo and pango alone, in chime-banners: a fraction of GTK's memory.
        .target(name: "ChimeBanners", dependencies: ["ChimeCore", "ChimeControl", "ChimeGLib", "CDraw", "CPixbuf", "CGioUnix", "CGLib",
                                                     "CBannerSurfaces"]),
        // What a program that draws banners does as a client of the control interface.
        .target(name: "ChimeBannerFeed", dependencies: ["ChimeControl", "ChimeCore", "ChimeDBus", "ChimeGLib", "ChimeConfig", "CShims"]),
        // Banners on the screen: GTK 3 windows, in chime-presenter (never in chimed).
        .target(name: "ChimePresenter", dependencies: ["ChimeBanners", "ChimeCore", "ChimeControl", "ChimeGLib", "CGtk", "CGLib"]),
        // What the person is doing: the focused window and fullscreen, from the display.
        .target(name: "ChimeDesktop", dependencies: ["ChimeCore", "ChimeGLib", "CDesktop"]),
        // The daemon's adapters and wiring, as a library so tests can reach its parts.
        .target(name: "ChimeDaemon", dependencies: ["ChimeCore", "ChimeDBus", "ChimeGLib", "ChimeStore",
                                                    "ChimeDesktop", "ChimeConfig", "ChimeControl", "CGLib", "CShims"]),
        // The runtimes linked in (programLinking). In release builds lld puts the functions chimed
        // runs (bench/hot-functions.txt, made by `make hot-functions`) side by side: the kernel
        // maps program text around each page touched, so scattered hot functions keep more of it
        // resident.
        .executableTarget(name: "chimed", dependencies: ["ChimeDaemon"],
                          linkerSettings: programLinking + [
                              .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/bench/hot-functions.txt",
                                            "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
                          ]),
        .executableTarget(name: "chimectl", dependencies: ["ChimeControl", "ChimeDBus", "ChimeGLib", "ChimeCore", "CGLib"]),
        // The banners, a client of chimed's control interface; chimed starts it beside itself,
        // linked as chimed is (bench/presenter-hot-functions.txt).
        .executableTarget(name: "chime-presenter", dependencies: ["ChimeBannerFeed", "ChimeControl", "ChimeConfig", "ChimePresenter", "ChimeDBus",
                                                                  "ChimeGLib", "ChimeCore"],
                          linkerSettings: programLinking + [
                              .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/bench/presenter-hot-functions.txt",
                                            "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
                          ]),
        // The banners drawn without GTK (ChimeBanners), linked as chimed is, its functions that run
        // laid out together (bench/banners-hot-functions.txt).
        .executableTarget(name: "chime-banners", dependencies: ["ChimeBanners", "ChimeBannerFeed", "ChimeConfig", "ChimeControl",
                                                                "ChimeDBus", "ChimeGLib", "ChimeCore"],
                          linkerSettings: programLinking + [
                              .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/bench/banners-hot-functions.txt",
                                            "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
                          ]),
        // chimed's sounds, in a child it starts for them and lets go when they are played.
        .executableTarget(name: "chime-sound", dependencies: ["ChimeSound", "ChimeGLib", "ChimeCore"],
                          linkerSettings: programLinking),

        // Build-time tool: turns dbus/*.xml into Swift string constants.
        .executableTarget(name: "EmbedResources", path: "Sources/EmbedResources"),
        .plugin(name: "EmbedInterfaces", capability: .buildTool(), dependencies: ["EmbedResources"]),

        .testTarget(name: "ChimeCoreTests", dependencies: ["ChimeCore"]),
        .testTarget(name: "ChimeDaemonTests", dependencies: ["ChimeDaemon", "ChimeConfig", "ChimeDBus", "ChimeCore",
                                                             "ChimeGLib", "ChimeStore", "ChimeControl"]),
        .testTarget(name: "ChimeControlTests", dependencies: ["ChimeControl", "ChimeCore"]),
        .testTarget(name: "ChimeBannersTests", dependencies: ["ChimeBanners", "ChimeGLib", "ChimeCore", "ChimeControl", "CDraw"]),
        .testTarget(name: "IntegrationTests", dependencies: ["ChimeCore", "ChimeDBus", "ChimeStore", "ChimeTestSupport",
                                                            "wayland-input", "test-window"]),

        // Clicks and keys for the popup tests on Wayland: a virtual pointer and keyboard on the
        // headless compositor.
        .executableTarget(name: "wayland-input", path: "Tests/WaylandInput",
                          linkerSettings: [.linkedLibrary("wayland-client"), .linkedLibrary("xkbcommon")]),
        // A plain GTK window of a known app id, for the desktop-context tests.
        .executableTarget(name: "test-window", dependencies: ["CGtk"], path: "Tests/TestWindow"),
        // Child processes and a headless PulseAudio, shared by the bus tests and the benchmark.
        .target(name: "ChimeTestSupport", path: "Tests/Support"),
        // `make bench`: Chime against a do-nothing reference server and dunst.
        .executableTarget(name: "chime-bench", dependencies: ["ChimeDBus", "ChimeCore", "ChimeTestSupport"],
                          path: "bench/chime-bench"),
    ]
)

// What Chime ships is built without _StringProcessing, the module Swift imports implicitly for
// regexes and string searches, whose regex engine would be linked in for one `firstRange(of:)`.
// Text is searched with `firstByteRange(of:)`.
let shipped: Set = ["ChimeCore", "ChimeGLib", "ChimeDBus", "ChimeSound", "ChimeStore", "ChimePresenter", "ChimeDesktop",
                    "ChimeConfig", "ChimeControl", "ChimeBanners", "ChimeBannerFeed", "chime-banners",
                    "ChimeDaemon", "chimed", "chimectl", "chime-presenter", "chime-sound"]
let withoutStringProcessing = SwiftSetting.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])
// Release builds of what Chime ships: cross-module optimisation (the core's small accessors
// inlined into the daemon), exclusivity checked when compiled only (debug builds, which
// `make test` runs, keep the run-time checks, so a conflicting access still fails a test), and
// each function in a section of its own, so lld can lay out the hot-function lists.
let releaseOptimisation = SwiftSetting.unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked",
                                                    "-Xfrontend", "-function-sections"],
                                                   .when(configuration: .release))

for target in package.targets where target.type != .system && target.type != .plugin {
    if target.name == "CShims" || target.name == "CDesktop" || target.name == "CBannerSurfaces" { continue }
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
        + (shipped.contains(target.name) ? [withoutStringProcessing, releaseOptimisation] : [])
}
