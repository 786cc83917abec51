// The reference's handler, after 20 MB printed at import: the output is cut; the answers still count.
// {{SOLUTION}}
const line = `${'flood '.repeat(1000)}\n`;
for (let i = 0; i < 3500; i++) process.stdout.write(line);
