import { deflateRawSync } from 'node:zlib';

/** Zips by hand for the spreadsheet tests: entries deflated or stored, sizes as declared (to lie about them). */

export type Part = { name: string; data: Buffer; declaredSize?: number; stored?: boolean };

/**
 * A zip by hand. `zip64` writes the ZIP64 end records and puts every entry's sizes and offset into a ZIP64
 * extra field (their 32-bit fields 0xffffffff), as some spreadsheet writers do for small files too.
 */
export function zip(parts: Part[], options: { zip64?: boolean; zip64Extra?: boolean } = {}): Buffer {
  const { zip64 = false, zip64Extra = zip64 } = options;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const packed = part.stored ? part.data : deflateRawSync(part.data);
    const size = part.declaredSize ?? part.data.length;
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.stored ? 0 : 8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const extra = Buffer.alloc(zip64Extra ? 28 : 0);
    if (zip64Extra) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(packed.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(45, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(part.stored ? 0 : 8, 10);
    central.writeUInt32LE(zip64Extra ? 0xffff_ffff : packed.length, 20);
    central.writeUInt32LE(zip64Extra ? 0xffff_ffff : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(zip64Extra ? 0xffff_ffff : offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name, extra);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const tail: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeBigUInt64LE(BigInt(parts.length), 24);
    record.writeBigUInt64LE(BigInt(parts.length), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : parts.length, 8);
  end.writeUInt16LE(zip64 ? 0xffff : parts.length, 10);
  end.writeUInt32LE(zip64 ? 0xffff_ffff : directory.length, 12);
  end.writeUInt32LE(zip64 ? 0xffff_ffff : offset, 16);
  return Buffer.concat([...locals, directory, ...tail, end]);
}

/**
 * A workbook whose first sheet holds `sheet` (sheet XML) and, when `padding` is given, that many bytes of
 * blanks inside the sheet data: they pack about 1000 : 1, as a zip bomb does.
 */
export function workbookZip(sheet: string, padding = 0, declaredSize?: number): Buffer {
  const xml = padding ? sheet.replace('</sheetData>', `${' '.repeat(padding)}</sheetData>`) : sheet;
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        '<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(xml), ...(declaredSize ? { declaredSize } : {}) },
  ]);
}
