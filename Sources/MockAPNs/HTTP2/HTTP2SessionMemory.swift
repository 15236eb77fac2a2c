import CNGHTTP2
import Foundation

/// A per-session allocator for nghttp2 (its `nghttp2_mem` hook, made "to achieve per-session memory pool").
///
/// nghttp2 allocates about a dozen small blocks per request (the stream, each decoded header, the answer's header
/// list and frames) and frees them when the stream closes. Here a freed block of up to 1 KiB goes onto a free list
/// of its size class and is handed out again by the next allocation of that class, instead of a round trip through
/// malloc and free; larger blocks go to malloc. A session is used on one event loop only, so there is no lock.
/// The free lists keep what the connection once needed at its busiest, and everything goes back to the system when
/// the session is gone.
final class HTTP2SessionMemory {
    /// Blocks come in multiples of 16 bytes up to `classCount * 16`.
    private static let granule = 16
    private static let classCount = 64
    /// Before each block: its size class (0 for a large block) and, for a large block, its size. 16 bytes keep the
    /// block 16-byte aligned, as malloc's are.
    private static let headerSize = 16

    private let freeLists: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    init() {
        freeLists = .allocate(capacity: Self.classCount + 1)
        freeLists.initialize(repeating: nil, count: Self.classCount + 1)
    }

    deinit {
        for sizeClass in 1...Self.classCount {
            var next = freeLists[sizeClass]
            while let block = next {
                next = block.load(as: UnsafeMutableRawPointer?.self)
                Foundation.free(block - Self.headerSize)
            }
        }
        freeLists.deallocate()
    }

    /// The hooks to give `nghttp2_session_server_new3`; this object must outlive the session.
    var hooks: nghttp2_mem {
        nghttp2_mem(
            mem_user_data: Unmanaged.passUnretained(self).toOpaque(), malloc: memoryAllocate, free: memoryFree,
            calloc: memoryAllocateZeroed, realloc: memoryReallocate)
    }

    func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let sizeClass = max(1, (size + Self.granule - 1) / Self.granule)
        if sizeClass <= Self.classCount {
            if let block = freeLists[sizeClass] {
                freeLists[sizeClass] = block.load(as: UnsafeMutableRawPointer?.self)
                return block
            }
            guard let raw = malloc(Self.headerSize + sizeClass * Self.granule) else { return nil }
            raw.storeBytes(of: sizeClass, as: Int.self)
            return raw + Self.headerSize
        }
        guard let raw = malloc(Self.headerSize + size) else { return nil }
        raw.storeBytes(of: 0, as: Int.self)
        raw.storeBytes(of: size, toByteOffset: MemoryLayout<Int>.size, as: Int.self)
        return raw + Self.headerSize
    }

    func free(_ block: UnsafeMutableRawPointer?) {
        guard let block else { return }
        let sizeClass = (block - Self.headerSize).load(as: Int.self)
        guard sizeClass > 0 else {
            Foundation.free(block - Self.headerSize)
            return
        }
        block.storeBytes(of: freeLists[sizeClass], as: UnsafeMutableRawPointer?.self)
        freeLists[sizeClass] = block
    }

    func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let block else { return allocate(size) }
        let header = block - Self.headerSize
        let sizeClass = header.load(as: Int.self)
        let capacity =
            sizeClass > 0 ? sizeClass * Self.granule : header.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self)
        if size <= capacity { return block }
        guard let grown = allocate(size) else { return nil }
        grown.copyMemory(from: block, byteCount: capacity)
        free(block)
        return grown
    }
}

// MARK: - C hooks

/// Calls `body` with the allocator; it outlives its session, so it is lent without a retain and release per call.
private func withMemory<Result>(
    _ userData: UnsafeMutableRawPointer?, _ body: (HTTP2SessionMemory) -> Result
) -> Result {
    Unmanaged<HTTP2SessionMemory>.fromOpaque(userData!)._withUnsafeGuaranteedRef(body)
}

private func memoryAllocate(_ size: Int, _ userData: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    withMemory(userData) { $0.allocate(size) }
}

private func memoryFree(_ block: UnsafeMutableRawPointer?, _ userData: UnsafeMutableRawPointer?) {
    withMemory(userData) { $0.free(block) }
}

private func memoryAllocateZeroed(_ count: Int, _ size: Int, _ userData: UnsafeMutableRawPointer?)
    -> UnsafeMutableRawPointer?
{
    let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
    guard !overflow, let block = withMemory(userData, { $0.allocate(bytes) }) else { return nil }
    block.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    return block
}

private func memoryReallocate(_ block: UnsafeMutableRawPointer?, _ size: Int, _ userData: UnsafeMutableRawPointer?)
    -> UnsafeMutableRawPointer?
{
    withMemory(userData) { $0.reallocate(block, size) }
}
