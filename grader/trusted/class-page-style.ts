// The class page's own style and script, inlined into it (class-page.ts): nothing is fetched.
// Colours pass WCAG AA on white; patterns tell the cells apart without colour.
export const pageStyle = `
body { font: 15px/1.45 system-ui, sans-serif; color: #1b1b1b; background: #fff; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { margin-top: 0; }
.stamps { color: #444; }
table { border-collapse: collapse; margin: 0.75rem 0 1.5rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid #8a8a8a; padding: 0.3rem 0.55rem; text-align: left; vertical-align: top; }
.cell { white-space: nowrap; }
.cell .word { font-size: 0.8em; color: #333; }
.full { background: #d9f2dd; }
.partly { background: repeating-linear-gradient(45deg, #fff1c7 0 6px, #ffe49a 6px 12px); }
.none { background: repeating-linear-gradient(0deg, #fbdada 0 3px, #f5c0c0 3px 6px); }
button.learner { font: inherit; background: none; border: 0; padding: 0; color: #0b4fa3; text-decoration: underline; cursor: pointer; }
button.learner:focus-visible { outline: 3px solid #0b4fa3; outline-offset: 2px; }
.details td { background: #f6f6f6; }
.chart { margin: 0.5rem 0; max-width: 48rem; }
.bar { display: grid; grid-template-columns: 18rem 1fr 3rem; gap: 0.5rem; align-items: center; margin: 0.2rem 0; }
.track { background: #ececec; height: 1rem; display: block; }
.fill { background: repeating-linear-gradient(90deg, #2f5f9e 0 8px, #244b7e 8px 10px); height: 1rem; display: block; }
.count { font-variant-numeric: tabular-nums; }
`;

// A learner's name opens and closes the row under it that holds their diagnosis.
export const pageScript = `
for (const button of document.querySelectorAll('button.learner')) {
	button.addEventListener('click', () => {
		const row = document.getElementById(button.getAttribute('aria-controls'));
		const open = button.getAttribute('aria-expanded') !== 'true';
		button.setAttribute('aria-expanded', String(open));
		row.hidden = !open;
	});
}
`;
