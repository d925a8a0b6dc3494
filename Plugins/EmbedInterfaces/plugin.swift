import Foundation
import PackagePlugin

/// Embeds the introspection XML from the package's dbus/ folder into the target,
/// so the daemon serves exactly the files that are installed and documented.
@main
struct EmbedInterfaces: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dbusFolder = context.package.directoryURL.appending(path: "dbus")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: dbusFolder.path)
            .filter { $0.hasSuffix(".xml") }
            .sorted()
            .map { dbusFolder.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedInterfaces.swift")
        return [
            .buildCommand(
                displayName: "Embedding D-Bus interfaces",
                executable: try context.tool(named: "EmbedResources").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
