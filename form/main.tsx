// The form page: the support form on your key store, and the network beside it.
import { createRoot } from 'react-dom/client';
import { keyStore } from 'virtual:key-store';
import { ControlPanel } from './ControlPanel.tsx';
import { NewTicketForm } from './NewTicketForm.tsx';
import { TabStorage } from './TabStorage.tsx';

createRoot(document.getElementById('root')!).render(
	<>
		<main>
			<h1>New support ticket</h1>
			<p className="running">Key store: {keyStore.label}</p>
			<NewTicketForm code={keyStore} form="new-ticket" />
			<TabStorage />
			<p>
				<a href="/anti-pattern.html">The same form with a new key for every attempt</a>
			</p>
		</main>
		<ControlPanel />
	</>
);
