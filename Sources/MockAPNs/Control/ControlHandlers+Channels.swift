import Foundation
import Hummingbird

extension ControlHandlers {
    /// Adds the broadcast channel routes (issue 24) to `router`.
    func registerChannels(on router: Router<BasicRequestContext>) {
        router.get("/v1/channels") { _, _ in
            let channels = try await self.server.channels()
            return ControlResponse.json(
                .object([("count", .number(String(channels.count))), ("channels", .array(channels.map(\.json)))]))
        }
        router.get("/v1/channels/{id}") { _, context in
            let id = Self.pathParameter("id", of: context)
            guard let channel = try await self.server.channel(id: id) else {
                throw InProcessControl.unknownChannel(id)
            }
            return ControlResponse.json(channel.json)
        }
    }
}
