// The libFuzzer driver: picks the target named by MOCK_APNS_FUZZ_TARGET and hands libFuzzer its entry point.
// Every flag and corpus folder on the command line is libFuzzer's. Use scripts/fuzz rather than running this.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Fuzzing) import MockAPNs

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
guard let name = getenv("MOCK_APNS_FUZZ_TARGET").map({ String(cString: $0) }) else {
    printError("mock-apns-fuzz: set MOCK_APNS_FUZZ_TARGET to one of: \(names)")
    exit(2)
}
guard let selected = FuzzTarget(rawValue: name) else {
    printError("mock-apns-fuzz: no target \"\(name)\"; the targets are: \(names)")
    exit(2)
}
nonisolated(unsafe) let target = selected

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        do {
            try target.run(input)
        } catch {
            printError("mock-apns-fuzz: \(target.rawValue): \(error)")
            abort()
        }
        return 0
    })
