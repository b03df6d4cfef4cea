import { describe, expect, it } from 'vitest';
import { normalizeNfcUid } from '../../api/contracts/admin/nfc';
import { formatTagInput, formatUid, parseTagInput, tagChoiceOf } from '../../web/src/lib/nfc-input';

describe('parseTagInput: a typed tag, read by the engine\'s rules', () => {
  it('reads a UID in any common spelling as upper-case colon pairs', () => {
    for (const typed of ['04a23b4c5d6e7f', '04-A2-3B-4C-5D-6E-7F', ' 04:a2:3b:4c:5d:6e:7f ', '04 A2 3B 4C 5D 6E 7F']) {
      expect(parseTagInput(typed, 'uid'), typed).toEqual({ kind: 'uid', uid: '04:A2:3B:4C:5D:6E:7F' });
    }
    // Web NFC's serialNumber: lower-case colon pairs.
    expect(parseTagInput('04:a2:3b:4c', 'uid')).toEqual({ kind: 'uid', uid: '04:A2:3B:4C' });
  });

  it('says "Please enter a valid NFC UID" for no text, odd digits, non-hex or a length no tag has', () => {
    for (const typed of ['', '   ', '04A23', 'not a uid', '04A2B3', '00'.repeat(11), 'ﬀﬀﬀﬀ']) {
      expect(parseTagInput(typed, 'uid'), typed).toEqual({ kind: 'invalid', message: 'Please enter a valid NFC UID' });
    }
  });

  it('reads a claim code in upper case, even one that looks like a UID', () => {
    expect(parseTagInput(' prv-7f3a ', 'claimCode')).toEqual({ kind: 'claimCode', claimCode: 'PRV-7F3A' });
    expect(parseTagInput('deadbeef', 'claimCode')).toEqual({ kind: 'claimCode', claimCode: 'DEADBEEF' });
  });

  it('says "Please enter a valid claim code" for no text or a code no card carries', () => {
    for (const typed of ['', 'AB', '-ABC', 'ABC-', 'AB CD', 'A'.repeat(33)]) {
      expect(parseTagInput(typed, 'claimCode'), typed).toEqual({ kind: 'invalid', message: 'Please enter a valid claim code' });
    }
  });

  it('agrees with the engine on every UID it accepts', () => {
    for (const typed of ['04a2b3c4', '04:A2:B3:C4:D5:E6:F7:08:09:0A', 'e0-04-01-50-8a-2b-3c-4d']) {
      const parsed = parseTagInput(typed, 'uid');
      expect(parsed).toEqual({ kind: 'uid', uid: normalizeNfcUid(typed) });
    }
  });
});

describe('tagChoiceOf: the bind request for a typed tag', () => {
  it('sends the UID or the claim code, never both', () => {
    expect(tagChoiceOf({ kind: 'uid', uid: '04:A2:B3:C4' })).toEqual({ uid: '04:A2:B3:C4' });
    expect(tagChoiceOf({ kind: 'claimCode', claimCode: 'PRV-1' })).toEqual({ claimCode: 'PRV-1' });
  });
});

describe('formatTagInput: what the field shows while typed in', () => {
  it('groups a UID in upper-case colon pairs as far as it is typed', () => {
    expect(formatTagInput('04a23b', 'uid').text).toBe('04:A2:3B');
    expect(formatTagInput('04a2b', 'uid').text).toBe('04:A2:B');
    expect(formatTagInput('04-a2 3b:', 'uid').text).toBe('04:A2:3B');
    expect(formatTagInput('', 'uid')).toEqual({ text: '', caret: 0 });
    expect(formatUid('04a23b4c')).toBe('04:A2:3B:4C');
  });

  it('leaves text that cannot be a UID as typed, for its message to explain', () => {
    expect(formatTagInput('04a2zz', 'uid', 3)).toEqual({ text: '04a2zz', caret: 3 });
  });

  it('keeps the caret after the same digit', () => {
    // Typed at the end: after the last digit.
    expect(formatTagInput('04:A2:3', 'uid', 7)).toEqual({ text: '04:A2:3', caret: 7 });
    expect(formatTagInput('04:A23', 'uid', 6)).toEqual({ text: '04:A2:3', caret: 7 });
    // A digit typed in the middle: "04:A|2" + "f" -> "04:AF:2", the caret after the F.
    expect(formatTagInput('04:Af2', 'uid', 5)).toEqual({ text: '04:AF:2', caret: 5 });
    // A digit deleted in the middle: "04:|A2:3B" after deleting the 4.
    expect(formatTagInput('0:A2:3B', 'uid', 1)).toEqual({ text: '0A:23:B', caret: 1 });
    expect(formatTagInput('04:A2', 'uid', 0)).toEqual({ text: '04:A2', caret: 0 });
    // After two digits the caret stays before the colon that follows them.
    expect(formatTagInput('04a2', 'uid', 2)).toEqual({ text: '04:A2', caret: 2 });
  });

  it('upper-cases a claim code without moving the caret', () => {
    expect(formatTagInput('prv-7f3a', 'claimCode', 3)).toEqual({ text: 'PRV-7F3A', caret: 3 });
  });
});
