// Every output says what it is: made with AI (IPTC digital source type, as C2PA-aware tools read it), at 300 DPI.
export const AI_SOURCE_TYPES = {
  /** Our studio: the person is the customer's own photo, cut out by a model and placed on a drawn backdrop. */
  composite: 'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
  /** An external generative model made the picture. */
  generated: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
} as const;

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function aiXmp(sourceType: keyof typeof AI_SOURCE_TYPES, description: string, creatorTool: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    `<Iptc4xmpExt:DigitalSourceType>${AI_SOURCE_TYPES[sourceType]}</Iptc4xmpExt:DigitalSourceType>`,
    `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(description)}</rdf:li></rdf:Alt></dc:description>`,
    `<xmp:CreatorTool>${escapeXml(creatorTool)}</xmp:CreatorTool>`,
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
  ].join('');
}
