import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { describeWithSqlite } from '../helpers/sqlite.js';
import { pageText } from '../search/helpers.js';

describeWithSqlite('wiki facts search in German (through the built CLI)', () => {
  it('finds a German source’s fact by its stem and shows it as written', async () => {
    const root = await initWorkspace();
    await writeFile(
      path.join(root, 'raw', 'stadt.md'),
      '# Die Stadt\n\nDie Häuser der Altstadt wurden aus Fachwerk gebaut.\nDie Kinder der Stadt gehen in die neue Schule am Markt.\n',
    );
    await writeFile(path.join(root, 'wiki', 'concepts', 'altstadt.md'), pageText('Altstadt', 'Die alte Stadt', 'Fachwerk.', { sources: ['raw/stadt.md'], lang: 'de' }));
    expect((await runCli(['facts', 'rebuild'], { cwd: root })).code).toBe(0);
    const found = await runCli(['facts', 'search', 'Haus', '--json'], { cwd: root });
    expect(found.code).toBe(0);
    const facts = (JSON.parse(found.stdout) as { facts: Array<{ text: string; sources: string[] }> }).facts;
    expect(facts.map((fact) => [fact.text, fact.sources])).toEqual([['Die Häuser der Altstadt wurden aus Fachwerk gebaut.', ['raw/stadt.md#L3']]]);
    const kind = JSON.parse((await runCli(['facts', 'search', 'Kind', '--json'], { cwd: root })).stdout) as { facts: Array<{ text: string }> };
    expect(kind.facts.map((fact) => fact.text)).toEqual(['Die Kinder der Stadt gehen in die neue Schule am Markt.']);
  });
});
