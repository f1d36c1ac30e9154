import { describe, expect, it } from 'vitest';
import { openSearchIndex } from '../../../../src/search/index.js';
import { configWith, pageText, workspaceWith } from '../../helpers.js';

/**
 * Pages about cars use "car" and "automobile" side by side; one page says only
 * "automobile". A query for "car" cannot reach it by words, but the built-in embedder has
 * learnt from the other pages that the two words go together.
 */
const PAGES: Record<string, string> = {
  'wiki/concepts/car-engines.md': pageText('Car engines', 'Engines', 'A car engine burns fuel. The automobile engine drives the wheels of the car on the road.'),
  'wiki/concepts/car-brakes.md': pageText('Brakes', 'Stopping', 'Car brakes stop the wheels. Automobile brakes use pads against a disc; every car and automobile has them.'),
  'wiki/concepts/car-tyres.md': pageText('Tyres', 'Rubber', 'Car tyres grip the road. Automobile tyres wear with every mile a car drives on the road.'),
  'wiki/concepts/dealership.md': pageText('Dealers', 'Where they are sold', 'An automobile dealer sells a new automobile with road tax, wheels and a fuel tank.'),
  'wiki/concepts/bread.md': pageText('Bread', 'Baking', 'Bread dough rises with yeast and bakes in an oven until the crust is brown.'),
  'wiki/concepts/cake.md': pageText('Cake', 'Baking', 'Cake batter with flour, sugar and eggs bakes in an oven; the crumb is soft.'),
  'wiki/concepts/pastry.md': pageText('Pastry', 'Baking', 'Pastry dough of flour and butter bakes in a hot oven until flaky.'),
  'wiki/entities/moon.md': pageText('Moon', 'Satellite', 'The moon orbits the earth; its craters show under a telescope at night.'),
  'wiki/entities/mars.md': pageText('Mars', 'Planet', 'Mars orbits the sun; a telescope shows its red surface and polar caps at night.'),
  'wiki/entities/saturn.md': pageText('Saturn', 'Planet', 'Saturn orbits the sun with bright rings that a small telescope shows at night.'),
};

describe('semantic lane', () => {
  it('lifts a page that shares no word with the query but shares its meaning', async () => {
    const ws = await workspaceWith(PAGES);
    const index = await openSearchIndex(ws.root, ws.schema, configWith(), { env: {} });
    const response = await index.search('car', { limit: 5 });
    const dealer = response.results.find((result) => result.key === 'dealership');
    expect(response.lanes.semantic).toBe('ok');
    expect(dealer).toBeDefined();
    expect(dealer?.lanes.lexical).toBeUndefined();
    expect(dealer?.lanes.token).toBeUndefined();
    expect(dealer?.lanes.semantic).toBeLessThanOrEqual(4);
    const unrelated = ['bread', 'cake', 'pastry', 'moon', 'mars', 'saturn'];
    const keys = response.results.map((result) => result.key);
    for (const key of unrelated) if (keys.includes(key)) expect(keys.indexOf(key)).toBeGreaterThan(keys.indexOf('dealership'));

    const lexicalOnly = await openSearchIndex(ws.root, ws.schema, configWith({ embedder: { kind: 'none' } }), { env: {}, persist: false });
    expect((await lexicalOnly.search('car', { limit: 5 })).results.map((r) => r.key)).not.toContain('dealership');
    await index.close();
  });
});
