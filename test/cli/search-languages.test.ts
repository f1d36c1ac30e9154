import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace, runCli } from '../helpers/cli.js';
import { pageText } from '../search/helpers.js';

/**
 * Search in the wiki's languages, through the built CLI: a mixed wiki (German, French,
 * Chinese and English pages), each page analysed in its own language (`lang`, or detected),
 * and a query matched against each page in that page's language.
 */

interface Hit {
  key: string;
  title: string;
  snippet: string;
  strength?: string;
}

const PAGES: Record<string, string> = {
  'wiki/concepts/hauser-der-stadt.md': pageText(
    'Häuser der Stadt',
    'Wie die Häuser der Altstadt gebaut wurden',
    'Die meisten Häuser der Altstadt stammen aus dem 18. Jahrhundert. Sie wurden aus Fachwerk gebaut und sind bis heute bewohnt.',
    { lang: 'de' },
  ),
  // No lang: detected as German from its words.
  'wiki/concepts/kinder-im-garten.md': pageText(
    'Spielen im Garten',
    'Warum draußen spielen gut ist',
    'Die Kinder spielen jeden Nachmittag im Garten, und die Eltern sehen ihnen dabei zu. Es ist nicht immer ruhig, aber sie sind an der frischen Luft.',
  ),
  'wiki/concepts/informationssuche.md': pageText(
    'Informationen finden',
    'Wie eine Suchmaschine Dokumente ordnet',
    'Eine Suchmaschine findet Informationen in einer großen Sammlung von Dokumenten und ordnet sie nach ihrer Bedeutung für die Anfrage.',
    { lang: 'de' },
  ),
  'wiki/concepts/les-chevaux.md': pageText(
    'Les chevaux de trait',
    'Des animaux de travail dans les fermes',
    'Les chevaux de trait ont longtemps tiré les charrues dans les champs. Aujourd’hui on les voit surtout dans les concours agricoles.',
    { lang: 'fr' },
  ),
  'wiki/concepts/yan-jiu-sheng-ming-qi-yuan.md': pageText(
    '研究生命起源',
    '科学家如何研究地球上生命的起源',
    '研究生命起源的科学家认为，最早的生命出现在海洋中。化学反应产生了最初的分子。',
    { lang: 'zh' },
  ),
  'wiki/concepts/yan-jiu-sheng-jiao-yu.md': pageText(
    '研究生教育',
    '大学如何培养研究生',
    '研究生在导师的指导下学习和写论文。每个研究生都要完成课程和答辩。',
    { lang: 'zh-Hans' },
  ),
  'wiki/concepts/information-retrieval.md': pageText(
    'Information retrieval',
    'Finding documents that answer a request',
    'Information retrieval ranks the documents of a collection by how well they answer a query, with BM25 or embeddings.',
  ),
  'wiki/concepts/children.md': pageText('Children’s books', 'Books written for young readers', 'Children read picture books before they read novels.'),
  'wiki/concepts/links.md': pageText('Links', 'A page linking the others', 'See [[yan-jiu-sheng-ming-qi-yuan]] and [[hauser-der-stadt|Häuser der Stadt]].'),
};

let root: string;

beforeAll(async () => {
  root = await initWorkspace();
  for (const [pagePath, content] of Object.entries(PAGES)) {
    await mkdir(path.dirname(path.join(root, pagePath)), { recursive: true });
    await writeFile(path.join(root, pagePath), content);
  }
});

async function search(query: string): Promise<Hit[]> {
  const result = await runCli(['search', query, '--json'], { cwd: root });
  const hits = (JSON.parse(result.stdout) as { results: Hit[] }).results;
  expect(result.code, result.stderr).toBe(hits.length > 0 ? 0 : 1);
  return hits;
}

describe('wiki search in the page’s language', () => {
  it.each([
    ['Haus', 'hauser-der-stadt'],
    ['Hauser', 'hauser-der-stadt'],
    ['Kind', 'kinder-im-garten'],
    ['cheval', 'les-chevaux'],
    ['研究生', 'yan-jiu-sheng-jiao-yu'],
    ['研究生命起源', 'yan-jiu-sheng-ming-qi-yuan'],
  ])('%s finds %s first', async (query, key) => {
    const hits = await search(query);
    expect(hits[0]?.key).toBe(key);
  });

  it('研究生 (graduate student) does not find the page on 研究生命起源 (research on the origin of life) above the one on graduate students', async () => {
    const keys = (await search('研究生')).map((hit) => hit.key);
    expect(keys.indexOf('yan-jiu-sheng-jiao-yu')).toBe(0);
    expect(keys.indexOf('yan-jiu-sheng-ming-qi-yuan')).not.toBe(0);
  });

  it('a German hit is labelled strong and its snippet holds the German word, as analysed in German', async () => {
    const [top] = await search('Haus');
    expect(top?.strength).toBe('strong');
    expect(top?.snippet).toMatch(/Häuser/);
  });

  it('one query finds pages of two languages, each matched in its own', async () => {
    const keys = (await search('Information')).map((hit) => hit.key);
    expect(keys).toContain('information-retrieval');
    expect(keys).toContain('informationssuche');
  });

  it('a word of one language does not match a page of another through that language’s stopwords', async () => {
    // "die" is an English word and a German article: the German pages full of it are not hits for the English word.
    const keys = (await search('die')).map((hit) => hit.key);
    expect(keys).not.toContain('kinder-im-garten');
  });

  it('English stays as it was: "children" finds the English page, "Kinder" the German one', async () => {
    expect((await search('children'))[0]?.key).toBe('children');
    expect((await search('Kinder'))[0]?.key).toBe('kinder-im-garten');
  });

  it('the same hits from the index saved on disk as from the one built', async () => {
    const first = await search('Haus');
    const second = await search('Haus');
    expect(second.map((hit) => hit.key)).toEqual(first.map((hit) => hit.key));
  });
});

describe('keys of pages with non-Latin titles', () => {
  it('links to them resolve, and lint names the key a title gets', async () => {
    const clean = await runCli(['lint', '--json'], { cwd: root });
    const report = JSON.parse(clean.stdout) as { findings: Array<{ rule: string; message: string }> };
    expect(report.findings.filter((finding) => finding.rule === 'broken-link')).toEqual([]);
    await writeFile(path.join(root, 'wiki/concepts/by-title.md'), pageText('By title', 'Links by title', 'See [[研究生命起源]] and [[Häuser der Stadt]].'));
    const broken = JSON.parse((await runCli(['lint', '--json'], { cwd: root })).stdout) as typeof report;
    const messages = broken.findings.filter((finding) => finding.rule === 'broken-link').map((finding) => finding.message);
    expect(messages.sort()).toEqual([
      'link [[Häuser der Stadt]] names a missing page "Häuser der Stadt"; close matches: [[hauser-der-stadt]]',
      'link [[研究生命起源]] names a missing page "研究生命起源"; close matches: [[yan-jiu-sheng-ming-qi-yuan]]',
    ]);
  });
});
