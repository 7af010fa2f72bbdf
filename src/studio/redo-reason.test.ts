import { expect, test } from 'vitest';
import { changeList, redoChanges } from './redo-reason.js';

test('a reason picks the frame, the photo and the backdrop, in German, English and Spanish', () => {
  expect(redoChanges('Weniger Platz oben, grüner Rand am Hals')).toEqual({ framing: 'tighter', photo: true });
  expect(redoChanges('less space above, green edge at the neck')).toEqual({ framing: 'tighter', photo: true });
  expect(redoChanges('menos espacio arriba, un borde verde en el cuello')).toEqual({ framing: 'tighter', photo: true });
  expect(redoChanges('Zu eng, meine Schultern sind abgeschnitten')).toEqual({ framing: 'looser' });
  expect(redoChanges('Too close, my shoulders are cut off')).toEqual({ framing: 'looser' });
  expect(redoChanges('Demasiado cerca')).toEqual({ framing: 'looser' });
  expect(redoChanges('Bitte ein anderes Foto, auf dem ich lächle')).toEqual({ photo: true });
  expect(redoChanges('Could you use a photo where I am smiling?')).toEqual({ photo: true });
  expect(redoChanges('Otra foto por favor')).toEqual({ photo: true });
  expect(redoChanges('Der Hintergrund gefällt mir nicht')).toEqual({ backdrop: true });
  expect(redoChanges('I would like another background')).toEqual({ backdrop: true });
  expect(redoChanges('Otro fondo, por favor')).toEqual({ backdrop: true });
  // Too much background is a frame too wide, not a backdrop to change.
  expect(redoChanges('Zu viel Hintergrund')).toEqual({ framing: 'tighter' });
});

test('what the studio cannot read changes nothing; a frame both tighter and looser is left to staff', () => {
  expect(redoChanges('')).toEqual({});
  expect(redoChanges('Die Krawatte sitzt schief')).toEqual({});
  expect(redoChanges('Zu eng oben, aber näher ran')).toEqual({});
  // "Rand" as a word, not inside another ("Brandenburg", "random"); "acerca de" is "about", not "closer".
  expect(redoChanges('Ich wohne in Brandenburg')).toEqual({});
  expect(redoChanges('A random question')).toEqual({});
  expect(redoChanges('Una pregunta acerca de la factura')).toEqual({});
  expect(redoChanges('Die Ränder am Haar sind grün')).toEqual({ photo: true });
});

test('the changes as a list in a fixed order', () => {
  expect(changeList({ backdrop: true, framing: 'looser', photo: true })).toEqual(['looser', 'photo', 'backdrop']);
  expect(changeList(null)).toEqual([]);
});
