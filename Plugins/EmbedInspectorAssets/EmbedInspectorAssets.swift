import Foundation
import PackagePlugin

/// Embeds every file under the target's `Control/Inspector/Assets/` in the binary: the `EmbedAssets` tool writes
/// them into one generated Swift file (`EmbeddedInspectorAssets.files`) that the target compiles.
///
/// SwiftPM's own `resources: [.embedInCode(...)]` works here but writes each file as an `[UInt8]` array literal,
/// which Swift 6.3 type-checks slowly: 100 KB of assets took 81 s (debug) and 170 s (release) and 1 GB of memory
/// to compile on this 2-core machine, against under a second as a string literal. Listing the folder here also
/// means that adding an asset is adding the file: the plugin runs on every build, and the files are the command's
/// inputs, so an added, changed or removed file regenerates the list.
@main
struct EmbedInspectorAssets: BuildToolPlugin {
    /// The assets' folder, relative to the target's.
    static let assetsFolder = "Control/Inspector/Assets"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // `Target.directoryURL` needs tools version 6.1; the package keeps 6.0 and the conventional layout.
        let assets = context.package.directoryURL.appending(path: "Sources/\(target.name)/\(Self.assetsFolder)")
        let files =
            FileManager.default.enumerator(
                at: assets, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])?
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } ?? []
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedInspectorAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) inspector assets",
                executable: try context.tool(named: "EmbedAssets").url,
                arguments: [assets.path, output.path],
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
