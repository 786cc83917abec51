// The network beside the form: what happens to the next requests, what each request met on the way, what
// reached the endpoint, and the tickets it holds. It reads the page server's /network/state twice a second.
import { useEffect, useState } from 'react';
import type { Ticket } from '#harness/core/model.ts';
import type { Received } from './server/backend.ts';
import type { Exchange, Fate } from './server/network.ts';
import { saidServer } from './words.ts';

type State = {
	endpoint: string;
	queue: Fate[];
	exchanges: Exchange[];
	received: Received[];
	tickets: Ticket[];
};

const short = (key: string | null) => (key === null ? '(none)' : key.slice(0, 8));
const subjectOf = (body: unknown) => JSON.stringify((body as { subject?: unknown } | null)?.subject ?? body);

async function ask(path: string, body?: unknown): Promise<void> {
	await fetch(path, { method: 'POST', body: body === undefined ? null : JSON.stringify(body) });
}

export function ControlPanel() {
	const [state, setState] = useState<State | null>(null);
	const [seconds, setSeconds] = useState(2);
	useEffect(() => {
		let stopped = false;
		const read = async () => {
			try {
				const response = await fetch('/network/state', { cache: 'no-store' });
				if (!stopped) setState((await response.json()) as State);
			} catch {
				// The page server is gone (npm run form stopped): keep the last picture.
			}
		};
		void read();
		const timer = setInterval(read, 500);
		return () => {
			stopped = true;
			clearInterval(timer);
		};
	}, []);
	const next = (fate: Fate) => ask('/network/next', fate);

	return (
		<aside aria-label="The network">
			<h2>The network</h2>
			<p>What happens to the next request (each choice is used up by one request, in order):</p>
			<div className="fates">
				<button type="button" onClick={() => next({ do: 'lose' })}>
					Lose the next response
				</button>
				<button type="button" onClick={() => next({ do: 'delay', ms: Math.round(seconds * 1000) })}>
					Delay the next response
				</button>
				<label>
					by{' '}
					<input
						type="number"
						name="delay-seconds"
						min="0"
						max="60"
						step="0.5"
						value={seconds}
						onChange={(event) => setSeconds(Number(event.target.value))}
					/>{' '}
					s
				</label>
				<button type="button" onClick={() => next({ do: 'answer', status: 500 })}>
					Answer 500
				</button>
				<button type="button" onClick={() => next({ do: 'answer', status: 409 })}>
					Answer 409
				</button>
				<button type="button" onClick={() => ask('/network/clear')}>
					Clear
				</button>
			</div>
			<p aria-label="Queued">
				Queued:{' '}
				{state && state.queue.length > 0
					? state.queue.map((fate) => (fate.do === 'answer' ? fate.status : fate.do)).join(', then ')
					: 'nothing, requests go through'}
			</p>
			<h3>On the wire</h3>
			<table aria-label="On the wire">
				<thead>
					<tr>
						<th>#</th>
						<th>key</th>
						<th>subject</th>
						<th>the network</th>
						<th>endpoint said</th>
						<th>page got</th>
					</tr>
				</thead>
				<tbody>
					{state?.exchanges.map((exchange) => (
						<tr key={exchange.number}>
							<td>{exchange.number}</td>
							<td title={exchange.key ?? ''}>{short(exchange.key)}</td>
							<td>{subjectOf(exchange.body)}</td>
							<td>{exchange.fate}</td>
							<td>{saidServer(exchange)}</td>
							<td>{exchange.page ?? '…'}</td>
						</tr>
					))}
				</tbody>
			</table>
			<h3>Tickets on the server</h3>
			<ul aria-label="Tickets on the server">
				{state?.tickets.map((ticket) => (
					<li key={ticket.id}>
						#{ticket.id} {ticket.subject}
					</li>
				))}
			</ul>
			<p className="running">Endpoint: {state?.endpoint ?? '…'}</p>
		</aside>
	);
}
