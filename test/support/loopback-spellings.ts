// The ways a URL can name this machine (issue 33: web_fetch reached loopback in decimal,
// IPv4-mapped and 0.0.0.0 spellings): every form the WHATWG URL parser reads as 127.0.0.1, ::1,
// :: or 0.0.0.0, or as localhost (IDN mapping, full-width digits, trailing dots, percent-encoding).
/** The spellings of 127.0.0.1 (and of this machine) a URL parser accepts; `port` is the server's. */
export function loopbackSpellings(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://0x7f.0.0.1:${port}/`,
    `http://127.1:${port}/`,
    `http://127.0.1:${port}/`,
    `http://127.0.0.1.:${port}/`,
    `http://%31%32%37.0.0.1:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::]:${port}/`,
    `http://0.0.0.0:${port}/`,
    `http://0:${port}/`,
    `http://localhost:${port}/`,
    `http://localhost.:${port}/`,
    `http://LOCALHOST:${port}/`,
    `http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:${port}/`,
    `http://１２７.０.０.１:${port}/`,
  ];
}
