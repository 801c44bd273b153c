/** The Kubernetes function libraries, in the order the runtime registers them. */
import { authzLibrary } from './library/authz';
import { formatLibrary } from './library/format';
import { ipLibrary } from './library/ip';
import { listsLibrary } from './library/lists';
import { optionalLibrary } from './library/optional';
import { quantityLibrary } from './library/quantity';
import { regexLibrary } from './library/regex';
import { setsLibrary } from './library/sets';
import { stringsLibrary } from './library/strings';
import { urlLibrary } from './library/url';
import type { Library } from './library';

export const kubernetesLibraries: readonly Library[] = [stringsLibrary, optionalLibrary, listsLibrary, setsLibrary, regexLibrary, urlLibrary, quantityLibrary, ipLibrary, formatLibrary, authzLibrary];
