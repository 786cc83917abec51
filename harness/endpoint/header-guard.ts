// A control character in a header line, refused as problem+json before any route. HTTP forbids one (RFC 9110,
// section 5.5: below a space, other than a tab, or DEL), so Node's parser stops at it, and would answer a bare
// 400 with no words; go/endpoint/server.go is Go's twin, in front of net/http, which would do the same.
//
//   server.on('clientError', (error, socket) => …);   // server.ts: error.rawPacket holds the request's bytes
//   controlCharacterRule(head);                       // 'client-required' | 'key-syntax' | 'header-control' | null
//   socket.end(await answerBytes(refuse(rule)));      // the refusal as HTTP/1.1, with Connection: close
//
// Which refusal: one in Authorization is a malformed caller (401, looked at first, as the route looks at the
// caller first); one in Idempotency-Key is a key outside its syntax; one in any other header, header-control.
import { STATUS_CODES } from 'node:http';
import { rules, type Rule } from './contract.ts';

const isControl = (code: number) => (code < 0x20 && code !== 0x09) || code === 0x7f;

// The refusal for the request whose bytes these are (up to the blank line, or all of them), or null.
export function controlCharacterRule(bytes: Buffer): Rule | null {
	const end = bytes.indexOf('\r\n\r\n');
	const head = (end < 0 ? bytes : bytes.subarray(0, end)).toString('latin1');
	const found = new Set<string>();
	for (const line of head.split('\r\n').slice(1))
		if ([...line].some((c) => isControl(c.charCodeAt(0))))
			found.add(line.split(':')[0]!.trim().toLowerCase());
	if (found.size === 0) return null;
	if (found.has(rules.client.header.toLowerCase())) return 'client-required';
	if (found.has(rules.key.header.toLowerCase())) return 'key-syntax';
	return 'header-control';
}

// A Response as the bytes of an HTTP/1.1 answer that closes its connection.
export async function answerBytes(response: Response): Promise<Buffer> {
	const body = Buffer.from(await response.arrayBuffer());
	const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
	response.headers.forEach((value, name) => lines.push(`${name}: ${value}`));
	lines.push(`content-length: ${body.length}`, 'connection: close');
	return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), body]);
}
