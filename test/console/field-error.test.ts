import { expect } from 'chai';
import { ApiError } from '../../console/src/api/client.js';
import { fieldError, lineError } from '../../console/src/components/field-error.js';

const invalid = (message: string) => new ApiError('invalid_request', message, 400, null);

describe('fieldError (the console shows a validation error beside its field)', () => {
  it('shows the message without the field path the API puts first', () => {
    expect(fieldError(invalid('greeting: must be at most 300 characters'), 'greeting')).to.equal('must be at most 300 characters');
  });

  it('names the item of a list field in words, not as a path', () => {
    expect(fieldError(invalid('starter_questions.0: must be at most 150 characters'), 'starter_questions')).to.equal('Item 1: must be at most 150 characters');
    expect(fieldError(invalid('starter_questions.3: must not be empty'), 'starter_questions')).to.equal('Item 4: must not be empty');
  });

  it('names an item of a list edited one per line by its line', () => {
    expect(lineError(invalid('allowed_origins.1: must be an origin'), 'allowed_origins')).to.equal('Line 2: must be an origin');
    expect(lineError(invalid('allowed_origins: at most 50 origins'), 'allowed_origins')).to.equal('at most 50 origins');
  });

  it('is null for another field or another kind of error', () => {
    expect(fieldError(invalid('greeting: must be at most 300 characters'), 'name')).to.equal(null);
    expect(fieldError(new ApiError('conflict', 'Someone saved these settings after you opened them.', 409, null), 'greeting')).to.equal(null);
  });
});
