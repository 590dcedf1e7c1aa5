import Testing
import Transfer

@Suite("Webhook targets")
struct TargetURLTests {
    static let development = AddressPolicy(allowing: [.loopback, .private, .sharedAddressSpace])

    @Test("https on a public host is accepted; http, credentials and other schemes are refused by default")
    func schemes() throws {
        #expect(try TargetURL("https://hooks.example.com/spotter?token=x", allowingHTTP: false, policy: .publicOnly).redacted
            == "https://hooks.example.com/spotter")
        for url in ["http://hooks.example.com/", "ftp://hooks.example.com/", "file:///etc/passwd", "https://user:pw@hooks.example.com/",
                    "hooks.example.com", "https://", "gopher://127.0.0.1:6379/"] {
            #expect(throws: TransferError.self, "\(url)") { try TargetURL(url, allowingHTTP: false, policy: .publicOnly) }
        }
    }

    @Test("hosts written as internal addresses are refused, in any spelling, before anything is sent")
    func internalAddresses() {
        let urls = [
            "https://127.0.0.1/", "https://127.1/", "https://0x7f000001/", "https://2130706433/", "https://[::1]/",
            "https://[::ffff:127.0.0.1]/", "https://10.1.2.3/", "https://192.168.0.10/", "https://172.16.5.4/",
            "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/", "https://[fe80::1]/", "https://0.0.0.0/",
        ]
        for url in urls {
            #expect(throws: TransferError.self, "\(url)") { try TargetURL(url, allowingHTTP: false, policy: .publicOnly) }
        }
    }

    @Test("the development policy allows http and loopback, private and CGNAT addresses, never link-local")
    func development() throws {
        for url in ["http://127.0.0.1:8080/hook", "http://[::1]:9/", "https://10.0.0.2/", "https://100.64.0.1/"] {
            _ = try TargetURL(url, allowingHTTP: true, policy: Self.development)
        }
        for url in ["http://169.254.169.254/", "http://[fe80::1]/"] {
            #expect(throws: TransferError.self, "\(url)") { try TargetURL(url, allowingHTTP: true, policy: Self.development) }
        }
    }
}
