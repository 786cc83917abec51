// The anti-pattern page: the same form and network, with a key made per attempt instead of per request.
import { createRoot } from 'react-dom/client';
import { AntiPatternForm } from './AntiPatternForm.tsx';
import { ControlPanel } from './ControlPanel.tsx';

createRoot(document.getElementById('root')!).render(
	<>
		<main>
			<h1>New support ticket, a key per attempt</h1>
			<p className="running">
				Key store: none. This page makes a new key every time Send is pressed, the mistake the lesson warns
				about. Lose a response, press Try again, and watch the tickets on the server.
			</p>
			<AntiPatternForm />
			<p>
				<a href="/">Back to the form on your key store</a>
			</p>
		</main>
		<ControlPanel />
	</>
);
