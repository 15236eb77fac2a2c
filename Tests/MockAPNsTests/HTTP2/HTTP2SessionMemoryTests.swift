import Testing
@testable import MockAPNs

@Suite("HTTP/2 session memory: nghttp2's allocator")
struct HTTP2SessionMemoryTests {
    @Test("blocks of every size keep what is written, a freed block is reused for its size class only")
    func blocks() throws {
        let memory = HTTP2SessionMemory()
        var blocks: [(UnsafeMutableRawPointer, Int)] = []
        for size in [0, 1, 15, 16, 17, 100, 1023, 1024, 1025, 5000] {
            let block = try #require(memory.allocate(size))
            #expect(Int(bitPattern: block) % 16 == 0, "16-byte aligned, as malloc's blocks are")
            block.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: size), count: size)
            blocks.append((block, size))
        }
        for (block, size) in blocks {
            let bytes = UnsafeBufferPointer(start: block.assumingMemoryBound(to: UInt8.self), count: size)
            #expect(bytes.allSatisfy { $0 == UInt8(truncatingIfNeeded: size) }, "size \(size)")
        }
        let small = blocks[5].0  // 100 bytes: class of 112
        memory.free(small)
        let other = try #require(memory.allocate(200))
        let reused = try #require(memory.allocate(112))
        #expect(other != small)
        #expect(reused == small)
        for (block, size) in blocks where size != 100 { memory.free(block) }
        memory.free(other)
        memory.free(reused)
        memory.free(nil)
    }

    @Test("reallocation keeps the bytes; a zeroed allocation is zero after a reused block held data")
    func reallocateAndZero() throws {
        let memory = HTTP2SessionMemory()
        var block = try #require(memory.allocate(10))
        block.copyMemory(from: Array("0123456789".utf8), byteCount: 10)
        #expect(memory.reallocate(block, 16) == block, "still fits its 16-byte class")
        for size in [40, 900, 3000, 9000] {
            block = try #require(memory.reallocate(block, size))
            #expect(String(decoding: UnsafeRawBufferPointer(start: block, count: 10), as: UTF8.self) == "0123456789")
        }
        memory.free(block)

        let dirty = try #require(memory.allocate(64))
        dirty.initializeMemory(as: UInt8.self, repeating: 0xFF, count: 64)
        memory.free(dirty)
        let hooks = memory.hooks
        let zeroed = try #require(hooks.calloc(8, 8, hooks.mem_user_data))
        #expect(zeroed == dirty)
        #expect(UnsafeRawBufferPointer(start: zeroed, count: 64).allSatisfy { $0 == 0 })
        hooks.free(zeroed, hooks.mem_user_data)
        #expect(hooks.calloc(Int.max, 2, hooks.mem_user_data) == nil, "a size that overflows is refused")
    }
}
