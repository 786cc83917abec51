// What this tab's sessionStorage holds right now: the pending submission your key store keeps, if any.
import { useEffect, useState } from 'react';

function entries(): [string, string][] {
	return Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i)!).map((name) => [
		name,
		sessionStorage.getItem(name) ?? ''
	]);
}

export function TabStorage() {
	const [now, setNow] = useState(entries);
	useEffect(() => {
		const timer = setInterval(() => setNow(entries()), 250);
		return () => clearInterval(timer);
	}, []);
	return (
		<section aria-label="This tab's sessionStorage">
			<h2>This tab's sessionStorage</h2>
			{now.length === 0 ? (
				<p>Empty: nothing is pending.</p>
			) : (
				<dl>
					{now.map(([name, value]) => (
						<div key={name}>
							<dt>{name}</dt>
							<dd>
								<code>{value}</code>
							</dd>
						</div>
					))}
				</dl>
			)}
		</section>
	);
}
