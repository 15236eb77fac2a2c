import Foundation
import Testing

/// Shipped scenarios named from outside the checkout, with the binary `scripts/install` lays out (issue 20, item 1).
@Suite("installed binary: shipped scenarios by name")
struct InstalledScenarioTests {
    @Test("check, run, verify and serve find a shipped scenario by name, file name or the docs' scenarios/ path")
    func shippedByName() async throws {
        try await InstalledMockAPNs.with { installed in
            let taxi = installed.shipped("taxi-ride.yaml")
            for name in ["taxi-ride", "taxi-ride.yaml", "scenarios/taxi-ride.yaml"] {
                let checked = try await installed.run(["check", name])
                #expect(checked.status == 0, "\(name): \(checked.output)\(checked.errors)")
                // The OK line names the file itself, so the user learns where it is.
                #expect(checked.output.hasPrefix("\(taxi): OK — scenario 'taxi-ride'"), "\(checked.output)")
                #expect(checked.errors.contains("scenario \(name): using the shipped \(taxi)"), "\(checked.errors)")
            }
            let journal = try installed.write("", "empty.jsonl")
            let verified = try await installed.run(["verify", "taxi-ride", "--journal", journal])
            #expect(verified.status == 0, "\(verified.output)\(verified.errors)")
            // docs/ci.md's first command, as written, from a folder without scenarios/.
            let token = "5984de83fef02c9ae624a1a84d3c486cceb0ea1086f6bf8c39efad11ec251979"
            let ran = try await installed.run([
                "run", "scenarios/unregistered-after-first.yaml", "--", "mock-apns", "push", token, "--alert", "hi",
            ])
            #expect(ran.status == 0, "\(ran.output)\(ran.errors)")
            #expect(ran.output.contains("✓"), "\(ran.output)")
            let serve = try await installed.serve(["--scenario", "taxi-ride"])
            defer { serve.stop() }
            #expect(serve.banner.contains("scenario 'taxi-ride'"), "\(serve.banner)")
        }
    }

    @Test("a scenario that is neither a file nor a shipped name: the error lists the shipped ones and their folder")
    func unknownNameListsShipped() async throws {
        try await InstalledMockAPNs.with { installed in
            let folder = installed.share.appendingPathComponent("scenarios").standardizedFileURL.path
            let commands = [
                ["check", "taxi-rid"], ["run", "taxi-rid", "--", "true"], ["serve", "--scenario", "taxi-rid"],
            ]
            for command in commands {
                let result = try await installed.run(command)
                let errors = result.errors
                #expect(result.status != 0, "\(command)")
                #expect(errors.contains("taxi-rid: cannot read the scenario file: no such file"), "\(errors)")
                #expect(errors.contains("(did you mean 'taxi-ride'?)"), "\(errors)")
                #expect(errors.contains("The shipped scenarios, in \(folder): default, faults,"), "\(errors)")
            }
            // A file of the user's own that exists is read as it is, never replaced by a shipped one.
            let own = try installed.write("name: mine\n", "taxi-ride.yaml")
            let checked = try await installed.run(["check", "taxi-ride.yaml"])
            #expect(checked.output.hasPrefix("taxi-ride.yaml: OK — scenario 'mine'"), "\(checked.output)")
            #expect(checked.errors.isEmpty, "\(checked.errors) \(own)")
        }
    }
}
